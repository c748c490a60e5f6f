/** The path with its trailing slash removed, or added when it has none; `/` stays `/`. */
export function toggleTrailingSlash(path: string): string {
  const trimmed = path.replace(/\/+$/, '') || '/';
  if (trimmed === '/') return '/';
  return trimmed === path ? `${path}/` : trimmed;
}
