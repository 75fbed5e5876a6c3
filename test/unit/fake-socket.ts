/** A WebSocket stand-in for the live client's unit tests: records every socket made, hears what the test says. */
export class FakeSocket {
  static readonly OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = FakeSocket.OPEN;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  send() {}
  close() {}
}
