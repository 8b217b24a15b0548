import type { TChapter } from '../chapter.schema';
import { CMD } from '../chapter-commands.data';
import { cmd, list, p, quiz, section, table, tip } from '../chapter-builders.util';

export const RECAP_EN: TChapter = {
  slug: 'recap',
  locale: 'en',
  lede: 'End of the line. Here is the whole trip on one page, the rules that held at every stop, and a map for the day something breaks.',
  sections: [
    section(
      'replay',
      'The two seconds, replayed',
      list(
        'sequence',
        true,
        'kubectl turns `deployment.yaml` into JSON and POSTs it to the apiserver.',
        'The apiserver authenticates you, authorizes the verb, runs admission, and stores the Deployment in etcd.',
        'kubectl prints `deployment.apps/my-app created`. Everything below happens after you already have your prompt back.',
        'The Deployment controller creates a ReplicaSet; the ReplicaSet controller creates three Pods without a node.',
        'The scheduler filters and scores the nodes, then writes a node name on each Pod.',
        'Each chosen kubelet sets up network and volumes, pulls the image, starts the containers through CRI, and reports `Running`.',
        'Once the Pods are ready, the endpoints controller lists them and kube-proxy rewrites the rules on every node.',
      ),
      p(
        'async',
        'Step 3 comes early. A successful apply means the request was recorded, not that the service works. Press replay in the journey strip and you can watch steps 4 to 7 arrive one lane at a time.',
      ),
    ),
    section(
      'principles',
      'Three rules that held at every stop',
      list(
        'rules',
        true,
        'Hub and spoke: every component talks only to the apiserver. The scheduler never called a kubelet; it edited a Pod, and the kubelet noticed. Security checks stay in one place and components stay independent.',
        'Nobody gives orders: each component owns one kind of change and only writes state. The scheduler wrote `nodeName`, the controllers wrote Pods.',
        'Everything is a reconcile loop: compare what is wanted with what exists, fix the difference, repeat. Self-healing is not a feature bolted on; it is the loop.',
      ),
      p(
        'consequences',
        'These rules explain the surprises from earlier: a deleted Pod returns because you changed reality, not the wish; services survive an apiserver outage because containers live on the nodes; a Pod can be `Pending` because placement is a separate step that nobody has taken yet.',
      ),
    ),
    section(
      'troubleshooting',
      'A troubleshooting map',
      p(
        'ask-who',
        'When something looks wrong, first ask which component owns that part of the journey. The answer cuts the search down to one place.',
      ),
      table(
        'symptoms',
        'Symptom, the station responsible, and the first thing to check',
        ['What you see', 'Station', 'Check first'],
        [
          'kubectl hangs or the connection is refused',
          'kube-apiserver',
          'is the apiserver running; does the kubeconfig point at it',
        ],
        [
          '`401 Unauthorized`',
          'kube-apiserver, authentication',
          'the credentials in your kubeconfig',
        ],
        ['`403 Forbidden`', 'kube-apiserver, authorization', '`kubectl auth can-i` for that verb'],
        [
          'an object is refused or changed on create',
          'kube-apiserver, admission',
          'the admission webhooks and policies',
        ],
        [
          'reads work, every write times out',
          'etcd, quorum lost',
          '`etcdctl endpoint health` and `member list`',
        ],
        [
          'a deleted Pod is not replaced',
          'controller-manager',
          'is the controller-manager running',
        ],
        [
          'Pods stay `Pending`',
          'kube-scheduler',
          'the `FailedScheduling` event in `kubectl describe pod`',
        ],
        [
          'Pods stay `ContainerCreating`',
          'kubelet',
          'image pull, volume mount and Pod IP in the Pod’s events',
        ],
        ['`CrashLoopBackOff`', 'the application itself', '`kubectl logs --previous`'],
        [
          'Pods `Running` but the Service gets no traffic',
          'endpoints, then kube-proxy',
          '`kubectl get endpoints`; readiness; labels against the selector',
        ],
        [
          'a node is `NotReady`',
          'that node’s kubelet',
          '`systemctl status kubelet` and `journalctl -u kubelet` on the node',
        ],
      ),
      cmd(
        'health',
        'A quick health round, one command per station that can fail.',
        'control-plane',
        CMD.getNodes,
        CMD.getPodsWide,
        CMD.getEndpoints,
        CMD.etcdHealth,
        CMD.canCreateDeployments,
      ),
      tip(
        'practice',
        'Practise on purpose',
        'The exercises break one station at a time. Before you fix anything, name the station from the symptom alone, then check your guess with one command.',
      ),
    ),
  ],
  quiz: [
    quiz(
      'read-only',
      'Every `kubectl get` works but every `apply` times out. Which station do you check first?',
      [
        ['a', 'The kube-scheduler.'],
        ['b', 'etcd: the cluster has probably lost quorum.'],
        ['c', 'kube-proxy on each node.'],
      ],
      'b',
      'Reads can be served from the apiserver’s cache, but every write needs a majority of etcd members.',
    ),
    quiz(
      'running-no-traffic',
      'All Pods are `Running`, yet the Service answers nothing. What do you run first?',
      [
        ['a', '`kubectl get endpoints` for the Service.'],
        ['b', '`etcdctl member list`.'],
        ['c', '`kubectl rollout undo`.'],
      ],
      'a',
      'Empty endpoints point to readiness or a selector mismatch, before kube-proxy is even involved.',
    ),
    quiz(
      'crashloop',
      'A Pod is in `CrashLoopBackOff`. Which component is most likely at fault?',
      [
        ['a', 'The kubelet.'],
        ['b', 'The scheduler.'],
        ['c', 'None: the application in the container keeps exiting.'],
      ],
      'c',
      'The kubelet is doing its job by restarting it with back-off; the container’s own logs explain the exit.',
    ),
  ],
};
