/**
 * Prints the claims of the OIDC token a GitHub Actions job would present to
 * npm, so a 403 from trusted publishing can be compared field by field with
 * the package's trusted-publisher connection. Run by publish.yml when its
 * `debug-oidc` input is set. The token itself is never printed: only the
 * decoded claims, which are not secret.
 */
import { AUDIENCE, decodeClaims, describeClaims } from './oidc.js';

async function main(): Promise<void> {
  const url = process.env.ACTIONS_ID_TOKEN_REQUEST_URL;
  const bearer = process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN;
  if (url === undefined || bearer === undefined) {
    throw new Error('no OIDC request variables: this runs only in a GitHub Actions job with `permissions: id-token: write`');
  }
  const response = await fetch(`${url}&audience=${encodeURIComponent(AUDIENCE)}`, { headers: { authorization: `bearer ${bearer}` } });
  if (!response.ok) throw new Error(`the OIDC token request failed: HTTP ${response.status}`);
  const body = (await response.json()) as { value?: unknown };
  if (typeof body.value !== 'string') throw new Error('the OIDC response has no token');
  console.log(describeClaims(decodeClaims(body.value)));
}

main().catch((error: unknown) => {
  console.error(`oidc-claims: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
