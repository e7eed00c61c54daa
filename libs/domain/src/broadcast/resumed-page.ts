/** A member as the broadcast sender pages them: a user within a tenant ('' for none). */
export interface PageMember {
  userId: string;
  tenant: string;
}

const keyOf = (m: PageMember) => `${m.userId}\u0000${m.tenant}`;

/**
 * A page read again by a sender that continues another's work (ADR 0172): some of its runs were
 * triggered already, with the members the audience held then. The page is then the range from
 * its start to the later of the two ends (`members`: every member in that range now), and
 * whoever is in it now and in no run yet gets one (`extras`); `recipients` counts everyone
 * triggered for the page, before or now. A member removed since was triggered and still counts;
 * one added inside the range is not missed; one pushed past the new end is not triggered twice.
 */
export function resumedPage(
  members: readonly PageMember[],
  /** Per tenant, the members of the page's run for that tenant (existing or just triggered). */
  triggered: ReadonlyMap<string, readonly PageMember[]>,
): { extras: PageMember[]; recipients: number } {
  const covered = new Set([...triggered.values()].flat().map(keyOf));
  const extras: PageMember[] = [];
  for (const m of members)
    if (!covered.has(keyOf(m))) {
      covered.add(keyOf(m));
      extras.push(m);
    }
  return { extras, recipients: covered.size };
}
