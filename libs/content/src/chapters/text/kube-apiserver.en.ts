import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import {
  cmd,
  handoff,
  list,
  note,
  p,
  quiz,
  section,
  table,
  tryIt,
  warning,
} from '../chapter-builders.util';

export const KUBE_APISERVER_EN: TChapter = {
  slug: 'kube-apiserver',
  locale: 'en',
  lede: 'Every request in the cluster, from you or from a component, enters through one door. This station is that door, and the only path to the database.',
  sections: [
    section(
      'role',
      'The one door',
      p(
        'front',
        'The kube-apiserver is the only component that serves the Kubernetes REST API, and the only one that reads or writes etcd. Your kubectl calls it; so do the controller-manager, the scheduler and every kubelet, each under its own identity.',
      ),
      handoff(
        'handoff',
        'An HTTP request: your POST of the `my-app` Deployment, with a bearer token from your kubeconfig.',
        'Who you are, whether you may do this, and whether the object is acceptable, in that order. A request that fails any check goes no further.',
        'The accepted object into etcd under `/registry/deployments/default/my-app`, then `201 Created` back to kubectl, and a watch event to every component that is watching Deployments.',
      ),
    ),
    section(
      'gates',
      'Three checks before anything is stored',
      table(
        'checks',
        'The checks a write passes, in order',
        ['Check', 'Question it answers', 'When it says no'],
        [
          'Authentication',
          'Who sent this? (client certificate, token, cloud identity)',
          '`401 Unauthorized`',
        ],
        [
          'Authorization (RBAC)',
          'May this identity do this verb on this resource?',
          '`403 Forbidden`',
        ],
        [
          'Admission',
          'Is the content acceptable, or should it be amended?',
          'rejected with the controller’s reason',
        ],
      ),
      p(
        'rbac',
        'RBAC, role-based access control, binds identities to roles, and roles list which verbs are allowed on which resources. You can ask the apiserver to evaluate a question without doing the action.',
      ),
      tryIt(
        'can-i',
        'Ask two authorization questions about yourself.',
        'control-plane',
        [CMD.canCreateDeployments, CMD.canDeleteNodes],
        '`yes` both times, with exit code 0: the lab admin belongs to `system:masters`, a group RBAC allows everything. An identity without the right role gets `no` and exit code 1.',
      ),
      p(
        'admission',
        'Admission comes in two kinds. Mutating admission may change the object: inject a sidecar, fill in default resource limits. Validating admission may only accept or refuse: no `latest` tags, every Pod needs a team label. Mutation runs first, so that whatever it adds is still checked by validation.',
      ),
      note(
        'in-the-wild',
        'You may already rely on this',
        'An Envoy container you never wrote, appearing in every Pod of an Istio mesh, was added by a mutating webhook. A deploy refused by an OPA Gatekeeper policy was stopped by a validating one.',
      ),
    ),
    section(
      'why-one-door',
      'Why funnel everything through one component',
      list(
        'benefits',
        false,
        'Security lives in one place. Authentication, authorization and admission are implemented once, not re-implemented in every component.',
        'Versions are converted in one place. An object sent as an older API version is converted to the version etcd stores, so existing objects survive API upgrades.',
        'etcd has exactly one client. Every access is checked and can be audited.',
      ),
    ),
    section(
      'down',
      'When the apiserver is down',
      warning(
        'deaf',
        'The cluster goes deaf, not dark',
        'kubectl gets no answer, controllers cannot correct anything, and the scheduler cannot place new Pods. Yet containers already running keep running: each kubelet holds on to what it last knew, and kube-proxy’s rules stay in the kernel. That is why production clusters run several apiservers.',
      ),
      p(
        'lab-stop',
        'In the lab, the apiserver is a static Pod: the kubelet on `control-plane` runs whatever is in `/etc/kubernetes/manifests`. Move the manifest away and it stops.',
      ),
      tryIt(
        'stop-apiserver',
        'Stop the apiserver, try kubectl, then look at the containers on `node-1` directly.',
        'control-plane',
        [CMD.stopApiserver, CMD.getPods, CMD.sshNode1, CMD.crictlPs, CMD.exit],
        'kubectl reports that the connection to the server was refused. On `node-1`, `crictl ps` still lists the `app` containers as `Running`.',
      ),
      cmd(
        'start-apiserver',
        'Put the manifest back; after a few seconds kubectl answers again.',
        'control-plane',
        CMD.startApiserver,
        CMD.getPods,
      ),
    ),
  ],
  quiz: [
    quiz(
      'order',
      'In which order does the apiserver check a write?',
      [
        ['a', 'Authorization, authentication, admission.'],
        ['b', 'Authentication, authorization, admission.'],
        ['c', 'Admission, authentication, authorization.'],
      ],
      'b',
      'It must know who you are before it can decide what you may do, and only then looks at the content.',
    ),
    quiz(
      'code-403',
      'kubectl prints `Error from server (Forbidden)`. Which check refused you?',
      [
        ['a', 'Authentication.'],
        ['b', 'Authorization (RBAC).'],
        ['c', 'Validating admission.'],
      ],
      'b',
      '403 means the apiserver knows who you are but your roles do not allow the verb; `kubectl auth can-i` confirms it.',
    ),
    quiz(
      'apiserver-down',
      'All apiservers are down. What happens to Pods that were already running?',
      [
        ['a', 'They keep running; nothing can change them until the apiserver returns.'],
        ['b', 'The kubelet stops them within 50 seconds.'],
        ['c', 'They are rescheduled to other nodes.'],
      ],
      'a',
      'Containers live in the node’s runtime; losing the apiserver only takes away changes and self-healing.',
    ),
  ],
};
