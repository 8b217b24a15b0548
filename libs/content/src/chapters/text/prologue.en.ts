import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, list, note, p, quiz, section, table, tryIt } from '../chapter-builders.util';

export const PROLOGUE_EN: TChapter = {
  slug: 'prologue',
  locale: 'en',
  lede: 'You type one command, read one line of output, and a moment later three Pods are running. This course follows that moment from start to finish.',
  sections: [
    section(
      'the-question',
      'One line of output, many questions',
      p(
        'start',
        'Your lab has a file called `deployment.yaml`. It asks for a Deployment named `my-app` with three replicas of nginx. Send it to the cluster and look at what comes back.',
      ),
      cmd(
        'first-apply',
        'Create the Deployment, then list its Pods.',
        'control-plane',
        CMD.apply,
        CMD.getPods,
      ),
      p(
        'output',
        'kubectl answers `deployment.apps/my-app created` almost at once. If you list Pods straight away, you may catch them as `Pending` or `ContainerCreating`. A couple of seconds later all three say `Running`.',
      ),
      p(
        'gap',
        'Something happened in those seconds, and kubectl did not do it. Where did the YAML go? Who picked the machines? Who actually started the containers? If a Pod dies, who notices, and who replaces it? Each of those answers has a different owner.',
      ),
    ),
    section(
      'the-route',
      'The route',
      p(
        'route-intro',
        'Instead of memorising seven definitions, we ride along with this one request. Each component appears at the moment it acts: what reaches it, what it decides, and what it hands on.',
      ),
      table(
        'stops',
        'The seven stations, in the order the request meets them',
        ['Station', 'Runs on', 'Its job in one line'],
        ['`kubectl`', 'your laptop', 'turns the YAML into an HTTP request'],
        ['`kube-apiserver`', 'control plane', 'checks the request and stores it'],
        ['`etcd`', 'control plane', 'keeps the only copy of cluster state'],
        ['`controller-manager`', 'control plane', 'turns a Deployment into Pods'],
        ['`kube-scheduler`', 'control plane', 'picks a node for each Pod'],
        ['`kubelet`', 'every node', 'starts the containers and reports back'],
        ['`kube-proxy`', 'every node', 'writes the rules that route Service traffic'],
      ),
      p(
        'lab-map',
        'The cluster map on the right shows the same picture: the control plane on top, `node-1` to `node-3` below. The journey strip at the bottom draws one lane per component, and an arrow each time one of them acts.',
      ),
    ),
    section(
      'two-rules',
      'Two rules to carry along',
      list(
        'rules',
        true,
        'Every component talks to the kube-apiserver, and to nothing else. The scheduler never calls a kubelet; it changes an object, and the kubelet notices.',
        'Only the kube-apiserver reads and writes etcd. Everyone else who wants to know the state of the cluster asks the apiserver.',
      ),
      p(
        'rules-why',
        'You will meet both rules at every stop. They explain why one component can fail while the rest carry on, and they tell you where to look when something is stuck.',
      ),
      tryIt(
        'watch-lanes',
        'Scale the Deployment down to two replicas, then watch the journey strip.',
        'control-plane',
        [CMD.scale2, CMD.getPods],
        'Arrows go from each component to `kube-apiserver` and back, never directly between two components. One Pod terminates and two stay `Running`.',
      ),
      note(
        'assumption',
        'What we assume',
        'You have used kubectl before and know roughly what a Pod and a Service are. You do not need to know what happens behind them; that is the point of the trip.',
      ),
      cmd(
        'restore',
        'Put the three replicas back before you move on.',
        'control-plane',
        CMD.scale3,
      ),
    ),
  ],
  quiz: [
    quiz(
      'created-means',
      'kubectl prints `deployment.apps/my-app created`. What is true at that instant?',
      [
        ['a', 'Three containers are running.'],
        ['b', 'The Deployment is stored; the Pods may not exist yet.'],
        ['c', 'The scheduler has picked three nodes.'],
      ],
      'b',
      'The reply comes back as soon as the apiserver has stored the object; everything after it happens asynchronously.',
    ),
    quiz(
      'who-talks',
      'How does the scheduler tell a kubelet to start a Pod?',
      [
        ['a', 'It opens a connection to the kubelet on that node.'],
        ['b', 'It writes to etcd, which notifies the kubelet.'],
        ['c', 'It updates the Pod through the apiserver, and the kubelet sees the change.'],
      ],
      'c',
      'Components only change objects through the apiserver; nobody sends orders to anybody.',
    ),
  ],
};
