/**
 * Exact fractions for the worked examples of the metric pages (`worked-examples.ts`): the
 * scorer counts in floating point, and a page shows each recall, precision and F1 as the
 * scorer's numerator and denominator and as a reduced fraction (e.g. `(64/7)/12 = 16/21`). The
 * fractions are recovered from the scorer's floats by continued fractions and kept only when
 * they reproduce the scorer's value.
 */

/** A fraction of whole numbers (reduced where it is a result). */
export interface Fraction {
  num: number;
  den: number;
}

/** A fraction as text: `16/21`, or `1` when the denominator is 1. */
export function fractionText(f: Fraction): string {
  return f.den === 1 ? String(f.num) : `${f.num}/${f.den}`;
}

/** One recall, precision or F1 of a worked example. */
export interface ScorePart {
  /** The value the scorer computed, a fraction in [0, 1]. */
  value: number;
  /** The same value as a reduced fraction, or null when none with a small denominator matches it. */
  exact: Fraction | null;
  /**
   * How the scorer got it: its numerator and denominator (`2/3`, `(64/7)/12` when the
   * numerator is a sum of fractions), or the combination rule (`(21/21 + 35/45)/2`, `2PR/(P + R)`).
   */
  expression: string;
}

/** A rational with BigInt parts, denominator > 0. */
export interface Rational {
  n: bigint;
  d: bigint;
}

/** The greatest common divisor of two BigInts (non-negative). */
function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** A rational in lowest terms. */
function reduce(r: Rational): Rational {
  const g = gcd(r.n, r.d) || 1n;
  return { n: r.n / g, d: r.d / g };
}

/** The rational n/d, reduced. */
export const rat = (n: number, d = 1): Rational => reduce({ n: BigInt(n), d: BigInt(d) });
/** a + b, reduced. */
export const addR = (a: Rational, b: Rational): Rational => reduce({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
/** a · b, reduced. */
export const mulR = (a: Rational, b: Rational): Rational => reduce({ n: a.n * b.n, d: a.d * b.d });
/** a / b, reduced; null when b is 0. */
const divR = (a: Rational, b: Rational): Rational | null => (b.n === 0n ? null : reduce({ n: a.n * b.d * (b.n < 0n ? -1n : 1n), d: a.d * (b.n < 0n ? -b.n : b.n) }));

/** Largest denominator accepted when recovering a fraction from a float. */
const MAX_DENOMINATOR = 1_000_000;

/** True when `r` equals `x` up to floating-point error. */
function matches(r: Rational, x: number): boolean {
  return Math.abs(Number(r.n) / Number(r.d) - x) <= 1e-12 * Math.max(1, Math.abs(x));
}

/**
 * The fraction with the smallest denominator (at most {@link MAX_DENOMINATOR}) that a
 * non-negative float equals up to rounding, by continued fractions; null when there is none.
 */
export function rationalize(x: number): Rational | null {
  if (!Number.isFinite(x) || x < 0) return null;
  if (Number.isInteger(x)) return rat(x);
  // Convergents h/k of the continued fraction of x.
  let [h0, h1] = [1n, BigInt(Math.floor(x))];
  let [k0, k1] = [0n, 1n];
  let rest = x - Math.floor(x);
  for (let i = 0; i < 40 && rest > 0; i++) {
    const inv = 1 / rest;
    const a = Math.floor(inv);
    rest = inv - a;
    [h0, h1] = [h1, BigInt(a) * h1 + h0];
    [k0, k1] = [k1, BigInt(a) * k1 + k0];
    if (k1 > BigInt(MAX_DENOMINATOR)) return null;
    const r = { n: h1, d: k1 };
    if (matches(r, x)) return reduce(r);
  }
  return null;
}

/** A rational as a plain fraction, when both parts are safe integers. */
function toFraction(r: Rational | null): Fraction | null {
  if (!r) return null;
  const num = Number(r.n);
  const den = Number(r.d);
  return Number.isSafeInteger(num) && Number.isSafeInteger(den) ? { num, den } : null;
}

/** A count as the page writes it: an integer as is, a sum of fractions as `(64/7)`. */
function countText(x: number, exact: Rational | null): string {
  if (Number.isInteger(x)) return String(x);
  if (exact) return `(${exact.n}/${exact.d})`;
  return String(Number(x.toPrecision(10)));
}

/** A part from a value and its exact form; the exact form is dropped unless it reproduces the value. */
export function part(value: number, exact: Rational | null, expression: string): ScorePart & { rational: Rational | null } {
  const ok = exact && matches(exact, value) ? exact : null;
  return { value, exact: toFraction(ok), expression, rational: ok };
}

/** Recall or precision from the scorer's numerator and denominator. */
export function ratioPart(num: number, den: number, value: number) {
  const numExact = rationalize(num);
  if (den === 0) return part(value, rat(0), `${countText(num, numExact)}/0 (taken as 0)`);
  const exact = numExact ? divR(numExact, rat(den)) : null;
  return part(value, exact, `${countText(num, numExact)}/${den}`);
}

/** F1 = 2PR/(P + R) from exact recall and precision. */
export function f1Part(value: number, r: Rational | null, p: Rational | null) {
  let exact: Rational | null = null;
  if (r && p) {
    const s = addR(r, p);
    exact = s.n === 0n ? rat(0) : divR(mulR(rat(2), mulR(r, p)), s);
  }
  return part(value, exact, "2PR/(P + R)");
}

/** Strips the internal rational. */
export function publicPart(p: ScorePart & { rational: Rational | null }): ScorePart {
  return { value: p.value, exact: p.exact, expression: p.expression };
}
