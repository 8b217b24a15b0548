import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, handoff, note, p, quiz, section, tip, tryIt } from '../chapter-builders.util';

export const KUBECTL_EN: TChapter = {
  slug: 'kubectl',
  locale: 'en',
  lede: 'The first station is not in the cluster at all. kubectl is a program on your machine that speaks HTTP to the apiserver, and nothing more.',
  sections: [
    section(
      'role',
      'A client, not a component',
      p(
        'client',
        'People often picture kubectl as part of Kubernetes. It is not. It is a command-line client, much like `curl` with good manners: it reads your kubeconfig, turns your YAML into JSON, and sends a REST request to the apiserver. Whatever happens next happens on the server.',
      ),
      handoff(
        'handoff',
        'Your command line, the file `deployment.yaml`, and the server address and credentials from your kubeconfig.',
        'Which API path and HTTP verb the object needs. For `apply`, it first asks whether `my-app` already exists, then creates it or sends a patch.',
        'One HTTP request to the kube-apiserver, here a POST to `/apis/apps/v1/namespaces/default/deployments`. It writes nothing anywhere else.',
      ),
    ),
    section(
      'see-the-request',
      'Watch the request leave',
      p(
        'verbose',
        'The `-v=8` flag makes kubectl print every HTTP exchange on stderr: the URL, the headers (with the token masked) and the bodies. Run it against the Deployment you already created.',
      ),
      cmd('apply-v8', 'Apply again with request logging.', 'control-plane', CMD.applyVerbose),
      p(
        'reading-v8',
        'Look for the lines from `round_trippers.go`. Because `my-app` exists, you will see a GET of the Deployment first and then the answer `deployment.apps/my-app unchanged`. On a fresh cluster the GET returns 404 and a POST carries your object, converted to JSON, in its body.',
      ),
      note(
        'nuance-post',
        'Why a GET first',
        'Client-side `apply` has to compare your file with what is live, so it always reads before it writes. The article’s picture of “a POST” is the first-time case.',
      ),
    ),
    section(
      'curl',
      'Do kubectl’s job with curl',
      p(
        'proxy',
        '`kubectl proxy` opens a local port that forwards plain HTTP to the apiserver, adding your credentials on the way. With it running, any HTTP client can ask the API directly.',
      ),
      tryIt(
        'curl-pods',
        'Start the proxy, ask for the Pod list with curl, then ask kubectl for the same list as JSON.',
        'control-plane',
        [CMD.proxy, CMD.curlPods, CMD.getPodsJson],
        'Both answers hold the same three `my-app` Pods with the same fields. kubectl had no secret channel; it called the same URL.',
      ),
      p(
        'table',
        'One more detail: the neat columns of `kubectl get` are built by the apiserver. kubectl asks for a `Table` in its Accept header and mostly just prints it.',
      ),
    ),
    section(
      'failure',
      'When this station fails',
      p(
        'errors',
        'Because kubectl is only a client, its failures are about reaching or convincing the server: a wrong kubeconfig, an unreachable address, an expired token. The cluster itself is untouched. Nothing you mistype here can stop a running container.',
      ),
      tip(
        'skew',
        'Version skew',
        'Since kubectl runs outside the cluster, the support policy is loose for it: it may be one minor version newer or older than the apiserver. The control-plane components are held to stricter rules, and none of them may be newer than the apiserver.',
      ),
    ),
  ],
  quiz: [
    quiz(
      'what-is-kubectl',
      'What is kubectl, from the cluster’s point of view?',
      [
        ['a', 'A control-plane component that runs next to the apiserver.'],
        ['b', 'An HTTP client of the apiserver’s REST API.'],
        ['c', 'An agent that runs on every node.'],
      ],
      'b',
      'kubectl only builds HTTP requests; `curl` through `kubectl proxy` gets the same answers.',
    ),
    quiz(
      'v8-shows',
      'What does `kubectl apply -f deployment.yaml -v=8` add to the normal output?',
      [
        ['a', 'The scheduler’s decision for each Pod.'],
        ['b', 'The HTTP requests and responses kubectl exchanges with the apiserver.'],
        ['c', 'The etcd keys that were written.'],
      ],
      'b',
      'Verbosity 8 logs URLs, headers and bodies; kubectl never sees etcd or the scheduler.',
    ),
    quiz(
      'apply-existing',
      'With `my-app` already in the cluster, what does `apply -v=8` show first?',
      [
        ['a', 'A GET of the Deployment, to compare it with your file.'],
        ['b', 'A DELETE followed by a POST.'],
        ['c', 'A direct write to etcd.'],
      ],
      'a',
      'Client-side apply reads the live object before deciding whether to create or patch it.',
    ),
  ],
};
