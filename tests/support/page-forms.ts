/**
 * A same-origin form post from one of the shop's pages, as a browser without JavaScript sends
 * it, signed in through the buyer's session cookie (the CSRF rule for page forms). Redirects
 * are not followed, so a test sees where Place order or Pay sends the buyer.
 */
export function postPageForm(
  server: { url: string },
  path: string,
  buyer: { headers: { token: string } },
  fields: Record<string, string>,
): Promise<Response> {
  return fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: server.url,
      cookie: `access_token=${buyer.headers.token}`,
    },
    body: new URLSearchParams(fields).toString(),
  });
}
