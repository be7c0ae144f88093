/**
 * Waits for something another process or a timer makes true, polling. The limit is generous, only
 * there to turn a hang into a failure that names what never happened: a slow, loaded machine must
 * not fail a test (speed is measured in bench/, not asserted here).
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 45_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}
