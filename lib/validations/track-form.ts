/**
 * A track's form values, without zod, so that the client-side tracks form can use them: zod in
 * a browser bundle probes for `eval`, which the site's CSP forbids (a reported violation).
 */

/** What a track's form shows: its fields as text (limits "" for none). */
export interface TrackFormValues {
  name: string;
  description: string;
  dailyLimit: string;
  totalLimit: string;
}

/** The form values of a stored track (limits as digits, "" for none). */
export function trackFormValues(track: { name: string; description: string; dailyLimit: number | null; totalLimit: number | null }): TrackFormValues {
  return {
    name: track.name,
    description: track.description,
    dailyLimit: track.dailyLimit === null ? "" : String(track.dailyLimit),
    totalLimit: track.totalLimit === null ? "" : String(track.totalLimit),
  };
}
