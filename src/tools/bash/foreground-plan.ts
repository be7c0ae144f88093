/**
 * When a foreground command is killed, and when it is moved to the background instead.
 *
 * An explicit `timeout` is the model's kill deadline and holds even after the command has moved to
 * the background. Without one, a command still running at the foreground budget moves to the
 * background and runs on; the default timeout kills it only when backgrounding is off or the budget
 * is longer than the default timeout.
 */
export interface ForegroundPlan {
  killAfterMs?: number;
  backgroundAfterMs?: number;
}

export function foregroundPlan(
  timeout: number | undefined,
  defaultTimeoutMs: number,
  backgroundBudgetMs: number | null,
): ForegroundPlan {
  const killAfterMs = timeout ?? defaultTimeoutMs;
  if (backgroundBudgetMs === null) return { killAfterMs };
  if (timeout === undefined) {
    return backgroundBudgetMs <= killAfterMs ? { backgroundAfterMs: backgroundBudgetMs } : { killAfterMs };
  }
  return backgroundBudgetMs < timeout
    ? { killAfterMs, backgroundAfterMs: backgroundBudgetMs }
    : { killAfterMs };
}
