/** A sleep that can be cut short; how pollers wait for a wake-up hint or a timeout. */
export class Sleeper {
  private wakeCurrent?: () => void;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wakeCurrent = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wakeCurrent = finish;
    });
  }

  wake(): void {
    this.wakeCurrent?.();
  }
}
