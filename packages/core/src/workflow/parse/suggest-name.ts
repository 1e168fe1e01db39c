/**
 * "Did you mean" for misspelt keys and state names: the closest candidate by edit
 * distance, if it is close enough to be a plausible typo.
 */
const distance = (a: string, b: string): number => {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
};

export const suggestName = (word: string, candidates: Iterable<string>): string | undefined => {
  let best: string | undefined;
  let bestScore = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    const score = distance(lower, candidate.toLowerCase());
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  const limit = word.length <= 3 ? 1 : Math.max(2, Math.floor(word.length / 3));
  return best !== undefined && bestScore <= limit ? best : undefined;
};
