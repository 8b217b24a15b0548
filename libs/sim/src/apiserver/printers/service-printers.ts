// printService, printEndpoints and printEndpointSlice (k/k pkg/printers/internalversion/printers.go).

import type { KubeObject } from '../../model';
import { timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, arr, col, field, nameCol, num, rec, str } from './printer-types';
import { formatLabelMap } from './selector-string';

type Rec = Record<string, unknown>;

function loadBalancerIps(svc: KubeObject, wide: boolean): string {
  const ingress = arr<Rec>(field(svc, 'status', 'loadBalancer', 'ingress'));
  const ips = ingress.map((i) => str(i?.ip) || str(i?.hostname)).filter((s) => s !== '');
  const r = ips.join(',');
  // loadBalancerStatusStringer cuts long lists when not wide
  return !wide && r.length > 16 ? `${r.slice(0, 13)}...` : r;
}

function externalIp(svc: KubeObject, wide: boolean): string {
  const spec = rec(svc.spec);
  const externalIPs = arr<string>(spec.externalIPs).map(String);
  switch (spec.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIps(svc, wide);
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

/** makePortString: `80/TCP`, `80:30080/TCP`, comma-joined. */
export function servicePorts(svc: KubeObject): string {
  return arr<Rec>(field(svc, 'spec', 'ports'))
    .map((p) => {
      const proto = str(p?.protocol) || 'TCP';
      const nodePort = num(p?.nodePort);
      return nodePort > 0 ? `${num(p?.port)}:${nodePort}/${proto}` : `${num(p?.port)}/${proto}`;
    })
    .join(',');
}

export const servicePrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Type', 'The type of the service.'),
    col('Cluster-IP', 'The IP address of the service.'),
    col('External-IP', 'The external IP address of the service.'),
    col('Port(s)', 'The ports of the service.'),
    ageCol(),
    col('Selector', 'The label selector of the service.', 1),
  ],
  row(svc: KubeObject, ctx: PrintContext) {
    const spec = rec(svc.spec);
    const clusterIPs = arr<string>(spec.clusterIPs);
    return [
      str(svc.metadata?.name),
      str(spec.type) || 'ClusterIP',
      str(clusterIPs[0]) || str(spec.clusterIP) || '<none>',
      externalIp(svc, ctx.wide),
      servicePorts(svc) || '<none>',
      timestampSince(svc.metadata?.creationTimestamp, ctx.now),
      formatLabelMap(spec.selector),
    ];
  },
};

/** formatEndpoints: first 3 `ip:port`, then ` + N more...`; `<none>` without subsets. */
export function formatEndpoints(ep: KubeObject): string {
  const subsets = arr<Rec>(ep.subsets);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = arr<Rec>(ss?.addresses);
    const ports = arr<Rec>(ss?.ports);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(str(a?.ip));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        const ip = str(a?.ip);
        list.push(ip.includes(':') ? `[${ip}]:${num(port?.port)}` : `${ip}:${num(port?.port)}`);
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

export const endpointsPrinter: ResourcePrinter = {
  columns: [nameCol(), col('Endpoints', 'Endpoints of the service'), ageCol()],
  row(ep: KubeObject, ctx: PrintContext) {
    return [
      str(ep.metadata?.name),
      formatEndpoints(ep),
      timestampSince(ep.metadata?.creationTimestamp, ctx.now),
    ];
  },
};

function listWithMore(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

export const endpointSlicePrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('AddressType', 'The IP protocol for this slice'),
    col('Ports', 'The ports of this slice'),
    col('Endpoints', 'First 3 endpoints of this slice'),
    ageCol(),
  ],
  row(slice: KubeObject, ctx: PrintContext) {
    const max = 3;
    const ports: string[] = [];
    let pMore = false;
    let pCount = 0;
    for (const p of arr<Rec>(slice.ports)) {
      if (ports.length < max) {
        ports.push(typeof p?.port === 'number' ? String(p.port) : str(p?.name) || '*');
      } else if (ports.length === max) pMore = true;
      pCount++;
    }
    const eps: string[] = [];
    let eMore = false;
    let eCount = 0;
    for (const e of arr<Rec>(slice.endpoints)) {
      for (const a of arr<string>(e?.addresses)) {
        if (eps.length < max) eps.push(String(a));
        else if (eps.length === max) eMore = true;
        eCount++;
      }
    }
    return [
      str(slice.metadata?.name),
      str(slice.addressType),
      listWithMore(ports, pMore, pCount, max),
      listWithMore(eps, eMore, eCount, max),
      timestampSince(slice.metadata?.creationTimestamp, ctx.now),
    ];
  },
};
