import { LogPosition } from './event-store';

const HALF = 16;

/** Encodes a (major, minor) pair as 32 hex digits so string order equals numeric order. */
export function encodePosition(major: bigint, minor: bigint): LogPosition {
  return major.toString(16).padStart(HALF, '0') + minor.toString(16).padStart(HALF, '0');
}

export function decodePosition(position: LogPosition): { major: bigint; minor: bigint } {
  if (position === '') return { major: 0n, minor: 0n };
  if (!/^[0-9a-f]{32}$/.test(position)) throw new Error(`Malformed log position: ${position}`);
  return { major: BigInt(`0x${position.slice(0, HALF)}`), minor: BigInt(`0x${position.slice(HALF)}`) };
}

export function maxPosition(a: LogPosition, b: LogPosition): LogPosition {
  return a > b ? a : b;
}

export function minPosition(a: LogPosition, b: LogPosition): LogPosition {
  return a < b ? a : b;
}
