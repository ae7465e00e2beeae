// Microphone capture for the song recognition page (apps/web/src/lib/audio-tools-recorder.ts).
// Loaded by URL (the Content-Security-Policy allows scripts from 'self' only, not blob: URLs). It copies the
// first input channel in blocks of about 85 ms and posts each block (Float32, at the context's rate) to the page.

const BLOCK = 4096;

class RecorderProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.buffer = new Float32Array(BLOCK);
    this.filled = 0;
  }

  process(inputs) {
    const channel = inputs[0]?.[0];
    if (channel) {
      let read = 0;
      while (read < channel.length) {
        const n = Math.min(channel.length - read, BLOCK - this.filled);
        this.buffer.set(channel.subarray(read, read + n), this.filled);
        this.filled += n;
        read += n;
        if (this.filled === BLOCK) {
          this.port.postMessage(this.buffer, [this.buffer.buffer]);
          this.buffer = new Float32Array(BLOCK);
          this.filled = 0;
        }
      }
    }
    return true;
  }
}

registerProcessor("audio-tools-recorder", RecorderProcessor);
