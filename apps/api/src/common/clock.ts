/** Wall-clock time, injected so session expiry can be tested at chosen instants. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
