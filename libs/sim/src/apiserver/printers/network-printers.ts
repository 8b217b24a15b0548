// printIngress, printIngressClass and printNetworkPolicy (k/k pkg/printers/internalversion).

import type { KubeObject } from '../../model';
import { timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, arr, col, field, nameCol, rec, str } from './printer-types';
import { selectorString } from './selector-string';

type Rec = Record<string, unknown>;

/** formatHosts: the first 3 hosts, then `+ N more...`; `*` when no rule names a host. */
function formatHosts(rules: Rec[]): string {
  const hosts = rules.map((r) => str(r['host'])).filter((h) => h);
  if (hosts.length === 0) return '*';
  const shown = hosts.slice(0, 3).join(',');
  return hosts.length > 3 ? `${shown} + ${hosts.length - 3} more...` : shown;
}

/** ingressLoadBalancerStatusStringer: ingress IPs or hostnames, comma-joined. */
function ingressAddress(ing: KubeObject): string {
  return arr<Rec>(field(ing, 'status', 'loadBalancer', 'ingress'))
    .map((i) => str(i['ip']) || str(i['hostname']))
    .filter((x) => x)
    .join(',');
}

export const ingressPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Class', 'The name of the IngressClass resource used by this Ingress.'),
    col('Hosts', 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', 'Ports of TLS configurations that open'),
    ageCol(),
  ],
  row(ing: KubeObject, ctx: PrintContext) {
    const cls = str(field(ing, 'spec', 'ingressClassName')) || '<none>';
    const tls = arr(field(ing, 'spec', 'tls'));
    return [
      str(ing.metadata?.name),
      cls,
      formatHosts(arr<Rec>(field(ing, 'spec', 'rules'))),
      ingressAddress(ing),
      tls.length ? '80, 443' : '80',
      timestampSince(ing.metadata?.creationTimestamp, ctx.now),
    ];
  },
};

export const ingressClassPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Controller', 'Controller that is responsible for handling this class'),
    col('Parameters', 'A reference to a resource with additional parameters'),
    ageCol(),
  ],
  row(ic: KubeObject, ctx: PrintContext) {
    const p = rec(field(ic, 'spec', 'parameters'));
    let params = '<none>';
    if (str(p['kind'])) {
      const group = str(p['apiGroup']);
      params = `${str(p['kind'])}${group ? `.${group}` : ''}/${str(p['name'])}`;
    }
    return [
      str(ic.metadata?.name),
      str(field(ic, 'spec', 'controller')),
      params,
      timestampSince(ic.metadata?.creationTimestamp, ctx.now),
    ];
  },
};

export const networkPolicyPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Pod-Selector', 'Select which pods this network policy applies to'),
    ageCol(),
  ],
  row(np: KubeObject, ctx: PrintContext) {
    return [
      str(np.metadata?.name),
      selectorString(field(np, 'spec', 'podSelector')) || '<none>',
      timestampSince(np.metadata?.creationTimestamp, ctx.now),
    ];
  },
};
