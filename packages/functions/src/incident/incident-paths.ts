/** The app's own URLs of one link; the token is percent-encoded so no token can change a path. */
export function incidentPaths(token: string) {
  const page = `/i/${encodeURIComponent(token)}`;
  return {
    page,
    clip: (index: number) => `${page}/clips/${index}`,
    pack: `${page}/pack`,
    acknowledge: `${page}/ack`,
  };
}
