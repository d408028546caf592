// Which connections can fetch a repository: repo-sync's repositoryCredential presents the
// connection's token to git as GitHub does (x-access-token), so only a GitHub connection (token,
// OAuth or GitHub App) serves git. The repository form offers only these; addRepository refuses
// any other.
export const GIT_CONNECTION_KINDS = ["GITHUB"] as const;

export function servesGit(kind: string): boolean {
  return (GIT_CONNECTION_KINDS as readonly string[]).includes(kind);
}
