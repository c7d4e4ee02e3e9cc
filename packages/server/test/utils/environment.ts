/**
 * This process's environment with some variables set or (`undefined`) removed, for a file's own
 * `ConfigProvider`: Effect's default provider reads the environment once per process, and a worker's test files
 * share one, so a file that sets a variable in `process.env` may find it read before, or left by an earlier file.
 */
export const environmentWith = (changes: Readonly<Record<string, string | undefined>>): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries({ ...process.env, ...changes })) {
    if (value !== undefined) env[name] = value
  }
  return env
}
