// The sign-in a person does in the browser, done over plain HTTP: follow
// the authorization URL through the provider's redirects, fill in its login
// form and its consent form, and stop at the redirect to the client's
// redirect URI, whose query holds the authorization code. Cookies are kept
// between requests, as a browser keeps them (by name; the provider's paths
// never collide within one sign-in).

/** The most requests one sign-in may take. */
const maxSteps = 12;

/** A cookie jar: name -> value. */
class Jar {
  constructor() { this.cookies = new Map(); }

  /** Stores the Set-Cookie headers of res; an empty or expired one deletes. */
  store(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) ||
        attrs.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now());
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The Cookie header. */
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Signs in at authorizationUrl as login with password, consenting to what
 * the client asks, and returns the redirect's URL (code, state, iss) once
 * the provider sends the browser to redirectUri. Throws with the page
 * when the provider answers anything else (a wrong password, an error).
 */
export async function signIn(authorizationUrl, redirectUri, login, password) {
  const jar = new Jar();
  let url = String(authorizationUrl);
  let init = { method: 'GET' };
  for (let step = 0; step < maxSteps; step++) {
    if (url.startsWith(String(redirectUri))) return new URL(url);
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: jar.header() } });
    jar.store(res);
    const body = await res.text();
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location'), url).href;
      init = { method: 'GET' };
      continue;
    }
    const action = body.match(/<form method="post" action="([^"]+)"/);
    if (res.status !== 200 || !action) {
      throw new Error(`sign-in stopped at ${url}: ${res.status} ${body.slice(0, 500)}`);
    }
    const form = body.includes('name="password"') ? new URLSearchParams({ login, password }) : new URLSearchParams();
    url = new URL(action[1], url).href;
    init = { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error(`sign-in took more than ${maxSteps} requests`);
}
