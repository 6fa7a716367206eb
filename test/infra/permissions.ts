/**
 * A readable summary of what each Lambda may do, for the reviewed table in
 * `test/infra/permissions.test.ts` (in place of a whole-template snapshot): per function its
 * memory (MB), timeout (s) and every IAM statement as `actions @ resources`, where a resource is
 * named by the logical id it points at (CDK's 8-character hash dropped) plus any literal path
 * (`/renders/*`, `:parameter/picsnippets/stripe/secret-key`).
 */
type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** `RenderHandlerLogs8DC7FFDD` → `RenderHandlerLogs`. */
const logical = (id: string): string => id.replace(/[0-9A-F]{8}$/, '');

/** One IAM resource (a string, Ref, GetAtt or Join) in words. */
export function resourceName(resource: unknown): string {
  if (typeof resource === 'string') return resource;
  const node = resource as Record<string, unknown>;
  if (typeof node.Ref === 'string') return node.Ref.startsWith('AWS::') ? '' : logical(node.Ref);
  const getAtt = node['Fn::GetAtt'] as [string, string] | undefined;
  if (getAtt) return logical(getAtt[0]);
  const join = node['Fn::Join'] as [string, unknown[]] | undefined;
  if (join) {
    return (
      join[1]
        .map((part) => {
          if (typeof part !== 'string') return resourceName(part);
          // Partition, region and account literals say nothing about the grant.
          const parameter = part.indexOf(':parameter/');
          if (parameter >= 0) return part.slice(parameter);
          return part.startsWith('arn:') || part.startsWith(':') ? '' : part;
        })
        // A secret's name is cut out of its ARN in two pieces: name it once.
        .filter((part, i, parts) => !(part.startsWith('<') && part === parts[i - 1]))
        .join('')
    );
  }
  // Another intrinsic (a name cut out of an ARN): named after the resource it reads.
  const text = JSON.stringify(resource);
  const ref = /"Ref":"([A-Za-z0-9]+)"/.exec(text);
  return ref ? `<name of ${logical(ref[1]!)}>` : text;
}

export interface FunctionGrants {
  /** MB. */
  memory: number;
  /** s. */
  timeout: number;
  /** `actions @ resources`, sorted. */
  iam: string[];
}

/**
 * Every Lambda of the template by its `FEATURE`.
 * @param resources the synthesised template's `Resources`
 */
export function functionGrants(resources: Resources): Record<string, FunctionGrants> {
  const out: Record<string, FunctionGrants> = {};
  for (const [, fn] of Object.entries(resources)) {
    if (fn.Type !== 'AWS::Lambda::Function') continue;
    const env = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables;
    const feature = String(env?.FEATURE ?? '');
    if (!feature) continue; // CDK's own helper functions (bucket deployment, log retention)
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = Object.values(resources)
      .filter(
        (p) =>
          p.Type === 'AWS::IAM::Policy' &&
          (p.Properties.Roles as Array<{ Ref: string }>).some((r) => r.Ref === roleId),
      )
      .flatMap(
        (p) =>
          (
            p.Properties.PolicyDocument as {
              Statement: Array<{ Action: unknown; Resource: unknown }>;
            }
          ).Statement,
      );
    out[feature] = {
      memory: fn.Properties.MemorySize as number,
      timeout: fn.Properties.Timeout as number,
      iam: statements
        .map(
          (s) =>
            `${[s.Action].flat().join(',')} @ ${[...new Set([s.Resource].flat().map(resourceName))].join(' ')}`,
        )
        .sort(),
    };
  }
  return out;
}
