/**
 * The path with its trailing slash removed, or added when it has none; a path of slashes only
 * (`/`, `//`) stays as it is. Symfony's `CompiledUrlMatcherTrait::match()` tries the toggled path
 * only when `rtrim($pathinfo, '/') ?: '/'` is not `/`, so `GET //` is a 404, not a redirect to `/`.
 * It toggles the path as sent, before `doMatch()` decodes it: `/boom%2F` becomes `/boom%2F/`.
 */
export function toggleTrailingSlash(path: string): string {
  const trimmed = path.replace(/\/+$/, '') || '/';
  if (trimmed === '/') return path;
  return trimmed === path ? `${path}/` : trimmed;
}
