/** FNV-1a, 32 bits: a stable, well-spread hash without any I/O or platform dependency. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The cohort branch for a key: the same key always lands in the same branch, and keys spread
 * over branches in proportion to their percentages (one decimal place).
 */
export function cohortBranch(percentages: readonly (number | string)[], key: string, salt: string): number {
  const bucket = fnv1a(`${salt}:${key}`) % 1000;
  let upper = 0;
  for (let i = 0; i < percentages.length; i++) {
    upper += Math.round(Number(percentages[i]) * 10);
    if (bucket < upper) return i;
  }
  return percentages.length - 1;
}
