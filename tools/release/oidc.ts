/**
 * Reads the claims of a GitHub Actions OIDC token, the fields npm's trusted
 * publishing matches against a package's trusted-publisher connection.
 */
export const AUDIENCE = 'npm:registry.npmjs.org';

/** The claims npm matches against the connection, printed first. */
const MATCHED = ['repository', 'repository_owner', 'workflow_ref', 'job_workflow_ref', 'environment', 'ref', 'aud', 'sub'];

export function decodeClaims(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1];
  if (payload === undefined) throw new Error('the OIDC response is not a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export function describeClaims(claims: Record<string, unknown>): string {
  const lines = ['OIDC claims for audience ' + AUDIENCE + ':'];
  const show = (key: string) => lines.push(`  ${key}: ${JSON.stringify(claims[key] ?? null)}`);
  MATCHED.forEach(show);
  lines.push('other claims:');
  Object.keys(claims)
    .filter((key) => !MATCHED.includes(key))
    .sort()
    .forEach(show);
  lines.push('A trusted-publisher connection matches when its repository and workflow file (publish.yml) equal these,');
  lines.push('its environment is empty (or equals "environment"), and it allows direct `npm publish`.');
  return lines.join('\n');
}
