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

export const KUBELET_EN: TChapter = {
  slug: 'kubelet',
  locale: 'en',
  lede: 'A node name has been written on each Pod. On that node, one agent notices, and for the first time in this journey a container starts.',
  sections: [
    section(
      'agent',
      'The node’s agent',
      p(
        'only-one',
        'Every node runs a kubelet. It watches the apiserver for Pods whose `spec.nodeName` is its own node, and it is the only component in the cluster that makes containers exist. Everything the control plane decided becomes real here, or not at all.',
      ),
      handoff(
        'handoff',
        'A Pod bound to its node, as a watch event from the apiserver.',
        'What the node must do to match the Pod spec: network, volumes, image, containers, and later whether each container is alive and ready.',
        'Calls to local plugins, then the Pod’s status back to the apiserver: its IP, container states, conditions such as `Ready`, and a node heartbeat.',
      ),
      list(
        'steps',
        true,
        'Ask the CNI plugin for a network namespace and a Pod IP.',
        'Mount the volumes, through a CSI driver when the volume needs one.',
        'Pull the image, unless the node already has it.',
        'Ask the container runtime, through CRI, to create and start each container.',
        'Run the probes and report status, for as long as the Pod lives.',
      ),
      table(
        'interfaces',
        'The three plug-in interfaces',
        ['Interface', 'Does', 'Typical implementations'],
        ['CRI (Container Runtime Interface)', 'runs containers', 'containerd, CRI-O'],
        [
          'CNI (Container Network Interface)',
          'gives the Pod a network and an IP',
          'Cilium, Calico, Flannel',
        ],
        [
          'CSI (Container Storage Interface)',
          'attaches and mounts storage',
          'cloud volume drivers',
        ],
      ),
      p(
        'precise',
        'So “the kubelet starts a container” is shorthand: the kubelet asks containerd through CRI, and containerd runs it. Because the two are separate projects, their versions have to match up when you upgrade.',
      ),
      tryIt(
        'crictl',
        'Log in to `node-1` and list its containers the way the runtime sees them.',
        'control-plane',
        [CMD.sshNode1, CMD.crictlPs, CMD.exit],
        'A table with an `app` container per `my-app` Pod placed on `node-1`, in state `Running`, with the Pod name beside it.',
      ),
    ),
    section(
      'reporter',
      'Also the reporter',
      p(
        'status',
        'The `Running`, `CrashLoopBackOff` and `1/1` you see in `kubectl get pods` were all written by a kubelet and stored through the apiserver. The kubelet also runs the probes defined in the Pod spec:',
      ),
      table(
        'probes',
        'What each probe failure leads to',
        ['Probe', 'Question', 'On failure'],
        ['`livenessProbe`', 'is the process still healthy?', 'the container is restarted'],
        [
          '`readinessProbe`',
          'may it receive traffic now?',
          'the Pod leaves the Service endpoints; no restart',
        ],
        [
          '`startupProbe`',
          'has a slow app finished starting?',
          'restart only once its whole budget is spent; liveness waits until it passes',
        ],
      ),
      p(
        'flaky',
        'The difference between the first two matters when a service works only some of the time: a failing readiness probe takes a Pod out of rotation while its restart count stays at zero.',
      ),
      cmd(
        'probe-settings',
        'See the probe settings the kubelet is running for `my-app`.',
        'control-plane',
        CMD.describePods,
      ),
    ),
    section(
      'down',
      'When a kubelet stops',
      warning(
        'keeps-running',
        'Containers outlive their kubelet',
        'The runtime keeps containers running without the kubelet. The node just loses its manager: no new Pods start there, no status is reported, and no probe restarts anything.',
      ),
      p(
        'timeline',
        'The node’s heartbeat stops. After the node monitor grace period, 50 seconds in v1.32, the node lifecycle controller marks the node `NotReady` and taints it. Pods carry a default toleration of 300 seconds for that taint; when it runs out they are evicted, and their ReplicaSet replaces them on other nodes.',
      ),
      tryIt(
        'stop-kubelet',
        'Stop the kubelet on `node-1`, check its containers, then watch the node from the control plane.',
        'control-plane',
        [CMD.sshNode1, CMD.stopKubelet, CMD.crictlPs, CMD.kubeletLog, CMD.exit, CMD.getNodes],
        '`crictl ps` still shows `Running` containers and the journal ends with the kubelet stopping. About 50 seconds later `kubectl get nodes` shows `node-1` as `NotReady`; five minutes after that its Pods are recreated elsewhere.',
      ),
      note(
        'taint-name',
        'Which taint, exactly',
        'A kubelet that stops reporting leaves the node’s Ready condition `Unknown`, so the taint is `node.kubernetes.io/unreachable`. A kubelet that reports itself not ready gets `node.kubernetes.io/not-ready`. Pods tolerate both for 300 seconds, as `kubectl describe pod` shows.',
      ),
      cmd(
        'start-kubelet',
        'Bring the kubelet back; the node returns to `Ready`.',
        'control-plane',
        CMD.sshNode1,
        CMD.startKubelet,
        CMD.exit,
        CMD.getNodes,
      ),
    ),
  ],
  quiz: [
    quiz(
      'creates',
      'Which component actually causes a container to be created on a node?',
      [
        ['a', 'kube-scheduler.'],
        ['b', 'The kubelet, through the CRI runtime.'],
        ['c', 'The ReplicaSet controller.'],
      ],
      'b',
      'The scheduler and controllers only write objects; the kubelet asks containerd to run containers.',
    ),
    quiz(
      'readiness',
      'A Pod’s readiness probe starts failing. What happens?',
      [
        ['a', 'The container is restarted.'],
        ['b', 'The Pod is removed from the Service endpoints but keeps running.'],
        ['c', 'The Pod is rescheduled to another node.'],
      ],
      'b',
      'Readiness decides who receives traffic; only liveness failures restart containers.',
    ),
    quiz(
      'kubelet-down',
      'The kubelet on a node stops. What do you see after one minute?',
      [
        ['a', 'Its containers stopped and the node is gone.'],
        ['b', 'Its containers still running and the node `NotReady`.'],
        ['c', 'Its Pods already running on other nodes.'],
      ],
      'b',
      'NotReady comes after the 50 s grace period; eviction waits for the 300 s toleration.',
    ),
  ],
};
