// meta/v1 Status errors with apimachinery's exact reasons and messages (FIDELITY.md §4,
// k8s.io/apimachinery/pkg/api/errors/errors.go).

import type { Status, StatusCause } from '../model';
import type { ResourceInfo } from '../model/resources';
import { groupResource } from '../model/resources';

export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message ?? status.reason ?? 'error');
  }
}

function failure(
  code: number,
  reason: string,
  message: string,
  details?: Status['details'],
): Status {
  const s: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  };
  if (details) s.details = details;
  // Status carries `details` before `code` on the wire; keep the key order stable.
  return details
    ? {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason,
        details,
        code,
      }
    : s;
}

export function notFound(r: Pick<ResourceInfo, 'group' | 'resource'>, name: string): Status {
  return failure(404, 'NotFound', `${groupResource(r)} ${JSON.stringify(name)} not found`, {
    name,
    ...(r.group ? { group: r.group } : {}),
    kind: r.resource,
  });
}

export function alreadyExists(r: Pick<ResourceInfo, 'group' | 'resource'>, name: string): Status {
  return failure(
    409,
    'AlreadyExists',
    `${groupResource(r)} ${JSON.stringify(name)} already exists`,
    {
      name,
      ...(r.group ? { group: r.group } : {}),
      kind: r.resource,
    },
  );
}

export const CONFLICT_MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(
  r: Pick<ResourceInfo, 'group' | 'resource'>,
  name: string,
  cause: string = CONFLICT_MODIFIED,
  qualifiedResource?: string,
): Status {
  const gr = qualifiedResource ?? groupResource(r);
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${gr} ${JSON.stringify(name)}: ${cause}`,
    {
      name,
      ...(r.group ? { group: r.group } : {}),
      kind: r.resource,
    },
  );
}

/** `%s is forbidden: %v` (no name) or `%s %q is forbidden: %v`. */
export function forbidden(
  r: Pick<ResourceInfo, 'group' | 'resource'>,
  name: string | undefined,
  why: string,
  qualifiedResource?: string,
): Status {
  const gr = qualifiedResource ?? groupResource(r);
  const subject = name ? `${gr} ${JSON.stringify(name)}` : gr;
  return failure(403, 'Forbidden', `${subject} is forbidden: ${why}`, {
    ...(name ? { name } : {}),
    ...(r.group ? { group: r.group } : {}),
    kind: r.resource,
  });
}

export function unauthorized(): Status {
  return failure(401, 'Unauthorized', 'Unauthorized');
}

export interface FieldError {
  type:
    | 'FieldValueInvalid'
    | 'FieldValueRequired'
    | 'FieldValueForbidden'
    | 'FieldValueNotSupported'
    | 'FieldValueDuplicate'
    | 'FieldValueTooLong';
  field: string;
  /** the detail after the type's prefix, e.g. `must be greater than or equal to 0` */
  detail?: string;
  /** the offending value (Invalid / NotSupported / Duplicate) */
  value?: unknown;
  /** NotSupported: the allowed values */
  supported?: string[];
}

/** Go's %#v-ish rendering that field.Invalid uses for the bad value. */
export function goValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goValue).join(', ')}}`;
  if (typeof v === 'object' && typeof (v as { __go?: unknown }).__go === 'string') {
    return (v as { __go: string }).__go;
  }
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : 1,
    );
    if (entries.every(([, x]) => typeof x === 'string')) {
      return `map[string]string{${entries.map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).join(', ')}}`;
    }
    return `map[string]interface {}{${entries.map(([k, x]) => `${JSON.stringify(k)}:${goValue(x)}`).join(', ')}}`;
  }
  return String(v);
}

/** field.Error.ErrorBody(): `Invalid value: -1: must be ...`, `Required value`, ... */
export function fieldErrorBody(e: FieldError): string {
  switch (e.type) {
    case 'FieldValueRequired':
      return e.detail ? `Required value: ${e.detail}` : 'Required value';
    case 'FieldValueForbidden':
      return e.detail ? `Forbidden: ${e.detail}` : 'Forbidden';
    case 'FieldValueTooLong':
      return e.detail ? `Too long: ${e.detail}` : 'Too long';
    case 'FieldValueDuplicate':
      return `Duplicate value: ${goValue(e.value)}`;
    case 'FieldValueNotSupported': {
      const supported = (e.supported ?? []).map((s) => JSON.stringify(s)).join(', ');
      return `Unsupported value: ${goValue(e.value)}: supported values: ${supported}`;
    }
    case 'FieldValueInvalid':
      return e.detail
        ? `Invalid value: ${goValue(e.value)}: ${e.detail}`
        : `Invalid value: ${goValue(e.value)}`;
  }
}

/** `%s %q is invalid: %v` with causes; the qualifier is a GroupKind such as `Deployment.apps`. */
export function invalid(
  r: Pick<ResourceInfo, 'group' | 'kind'>,
  name: string,
  errors: FieldError[],
): Status {
  const groupKind = r.group ? `${r.kind}.${r.group}` : r.kind;
  const lines = errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
  const agg = lines.length === 1 ? (lines[0] as string) : `[${lines.join(', ')}]`;
  const causes: StatusCause[] = errors.map((e) => ({
    reason: e.type,
    message: fieldErrorBody(e),
    field: e.field,
  }));
  return failure(422, 'Invalid', `${groupKind} ${JSON.stringify(name)} is invalid: ${agg}`, {
    name,
    ...(r.group ? { group: r.group } : {}),
    kind: r.kind,
    causes,
  });
}

export function expired(requested: number, oldest: number): Status {
  return failure(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
}

export function badRequest(message: string): Status {
  return failure(400, 'BadRequest', message);
}

export function methodNotSupported(
  r: Pick<ResourceInfo, 'group' | 'resource'>,
  action: string,
): Status {
  return failure(
    405,
    'MethodNotAllowed',
    `${action} is not supported on resources of kind ${JSON.stringify(groupResource(r))}`,
    {
      ...(r.group ? { group: r.group } : {}),
      kind: r.resource,
    },
  );
}

export function internalError(message: string): Status {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });
}

/** A non-Status error (e.g. from etcd) becomes 500 with an empty reason and the raw message. */
export function rawServerError(message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 };
}

export function notFoundResourceType(resource: string): Status {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {
    kind: resource,
  });
}

export function success(details?: Status['details']): Status {
  return details
    ? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details, code: 200 }
    : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
}
