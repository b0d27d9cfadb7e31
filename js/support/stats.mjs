// Summary statistics of timing samples, for the benches. Not part of the package.

/** `{ median, mean, n }` of `samples` (the median of an even count: the mean of the middle two). */
export function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, mean: s.reduce((a, b) => a + b, 0) / s.length, n: s.length };
}
