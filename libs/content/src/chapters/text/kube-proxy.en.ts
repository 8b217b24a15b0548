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
  tip,
  tryIt,
  warning,
} from '../chapter-builders.util';

export const KUBE_PROXY_EN: TChapter = {
  slug: 'kube-proxy',
  locale: 'en',
  lede: 'The containers run. One question is left: how does anyone reach them, when every restart gives a Pod a new IP?',
  sections: [
    section(
      'service',
      'A fixed address in front of moving Pods',
      p(
        'why-service',
        'Pod IPs are disposable: a replaced Pod gets a new one. Clients therefore talk to a Service, a virtual IP that never changes, backed by whichever Pods currently match its selector. kube-proxy is what makes that virtual IP lead somewhere.',
      ),
      handoff(
        'handoff',
        'Watch events for Services and for their endpoints: the ready Pod addresses behind each Service.',
        'Which rules this node needs so that traffic to each Service IP lands on one of its ready Pods.',
        'iptables rules in the node’s own kernel. It writes nothing back to the apiserver except its own events.',
      ),
      tryIt(
        'expose',
        'Create the Service for `my-app`, then read its IP and its endpoints.',
        'control-plane',
        [CMD.applyService, CMD.getService, CMD.getEndpoints],
        'A `ClusterIP` from the service range, and three `IP:80` pairs that match the Pod IPs in `kubectl get pods -o wide`.',
      ),
    ),
    section(
      'rules',
      'It writes rules; the kernel moves packets',
      p(
        'not-a-proxy',
        'Despite the name, no traffic passes through the kube-proxy process. It translates Services and endpoints into iptables (or IPVS) rules, and the Linux kernel applies them to every packet. Think of it as the person who programs the traffic lights, not the officer standing in the junction.',
      ),
      tryIt(
        'iptables',
        'Read the NAT rules on `node-1`.',
        'control-plane',
        [CMD.sshNode1, CMD.iptablesSave, CMD.exit],
        'A `KUBE-SERVICES` chain that matches the Service IP and jumps to a `KUBE-SVC-...` chain, which picks one of three `KUBE-SEP-...` chains at random, each rewriting the destination to one Pod.',
      ),
      p(
        'rule-stays',
        'This design has a pleasant consequence: if kube-proxy stops, the rules stay in the kernel and existing Services keep working. Only changes, such as a new Service or a Pod that became ready, are no longer applied on that node.',
      ),
      cmd(
        'stop-proxy',
        'Stop kube-proxy on `node-1`; the rules are still there.',
        'control-plane',
        CMD.sshNode1,
        CMD.stopKubeProxy,
        CMD.iptablesSave,
        CMD.startKubeProxy,
        CMD.exit,
      ),
    ),
    section(
      'chain',
      'From a passing probe to a routed packet',
      list(
        'steps',
        true,
        'The kubelet reports that a Pod’s readiness probe passes.',
        'The endpoints controller adds the Pod’s address to the Service’s endpoints.',
        'kube-proxy on every node sees the change and rewrites its rules.',
      ),
      p(
        'rolling',
        'This chain is why a rolling update causes no outage: a new Pod receives traffic only after it is ready, and until then the old Pods keep serving.',
      ),
      note(
        'slices',
        'Endpoints or EndpointSlices',
        'Current kube-proxy reads EndpointSlices, which a sibling controller keeps in step with the same ready addresses. `kubectl get endpoints` is still the quickest way to see them.',
      ),
      tryIt(
        'empty',
        'Scale `my-app` to zero and look at the endpoints again.',
        'control-plane',
        [CMD.scale0, CMD.getEndpoints],
        'The ENDPOINTS column shows `<none>`. The Service still exists and still has its IP, but there is no Pod behind it, so connections are rejected.',
      ),
      cmd(
        'scale-back',
        'Bring the three replicas back.',
        'control-plane',
        CMD.scale3,
        CMD.getEndpoints,
      ),
      tip(
        'order',
        'When a Service does not answer',
        'Check in this order: do the endpoints list any Pod IP? If not, look at readiness probes and at whether the Pod labels match the Service selector. Only when both look right is kube-proxy or the CNI plugin a suspect.',
      ),
      warning(
        'empty-warning',
        'Running is not ready',
        'Pods can all be `Running` while the Service has no endpoints: a Pod joins only once it is ready and its labels match.',
      ),
    ),
  ],
  quiz: [
    quiz(
      'forwards',
      'Who forwards a packet sent to a Service’s ClusterIP?',
      [
        ['a', 'The kube-proxy process on the node.'],
        ['b', 'The Linux kernel, following rules kube-proxy wrote.'],
        ['c', 'The kube-apiserver.'],
      ],
      'b',
      'kube-proxy only programs iptables or IPVS; the packets never pass through it.',
    ),
    quiz(
      'empty-endpoints',
      '`kubectl get endpoints my-app-svc` shows `<none>`. What is the most likely cause?',
      [
        ['a', 'kube-proxy crashed on one node.'],
        ['b', 'No Pod matching the selector is ready.'],
        ['c', 'etcd lost quorum.'],
      ],
      'b',
      'Endpoints list only ready Pods whose labels match the selector; kube-proxy does not build that list.',
    ),
    quiz(
      'proxy-down',
      'kube-proxy stops on a node. What happens to an existing Service on that node?',
      [
        ['a', 'It keeps working with the rules already in the kernel.'],
        ['b', 'All traffic to it is dropped immediately.'],
        ['c', 'Its Pods are evicted.'],
      ],
      'a',
      'The rules stay in place; only later changes to Services or endpoints are missed.',
    ),
  ],
};
