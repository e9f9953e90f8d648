/** Where to send queries, with the URL's credentials moved out of it and a way to keep them out of messages. */
export interface TsaEndpoint {
  /** The URL without userinfo: fetch refuses URLs with credentials. The query string stays (API keys). */
  url: URL;
  /** `Basic ...` from the URL's userinfo, when it had one. */
  authorization?: string;
  /** The URL as messages may show it: no userinfo, no query. */
  shown: string;
  /** `text` with every secret part of the URL (userinfo, query) replaced, should a library echo it. */
  scrub(text: string): string;
}

/** The endpoint for a configured TSA URL, or why it cannot be one (without echoing the URL). */
export function tsaEndpoint(configured: string): TsaEndpoint | { problem: string } {
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    return { problem: "the TSA URL is not a valid URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { problem: `the TSA URL must be http or https, not ${url.protocol}` };
  }
  const username = percentDecoded(url.username);
  const password = percentDecoded(url.password);
  const secrets = [url.username, url.password, username, password, url.search.slice(1)].filter(
    (secret) => secret.length > 0,
  );
  const hidden = (present: string, text: string) => (present ? text : "");
  const shown = `${url.protocol}//${hidden(url.username || url.password, "***@")}${url.host}${url.pathname}${hidden(url.search, "?***")}`;
  const authorization =
    username || password ? `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` : undefined;
  url.username = "";
  url.password = "";
  return {
    url,
    ...(authorization ? { authorization } : {}),
    shown,
    scrub: (text) => secrets.reduce((scrubbed, secret) => scrubbed.split(secret).join("***"), text),
  };
}

/** Userinfo as the user meant it ("p%40ss" is "p@ss"); a stray "%" that decodes to nothing stays as typed. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
