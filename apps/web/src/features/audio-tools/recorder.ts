/** The AudioWorklet module (apps/web/public): loaded by URL, since the CSP refuses blob: scripts. */
const WORKLET_URL = "/audio-tools-recorder.worklet.js";
const WORKLET_NAME = "audio-tools-recorder";

/** A running microphone capture. */
export type Capture = {
  /** The rate of the blocks `onBlock` receives (the AudioContext's rate). */
  sampleRate: number;
  /** "worklet" or "script-processor" (the fallback when AudioWorklet is unavailable). */
  via: "worklet" | "script-processor";
  /** Stop capturing and release the microphone (idempotent). */
  stop: () => void;
};

/** Thrown when the microphone cannot be opened (refused, missing, or no Web Audio). */
export class MicrophoneError extends Error {
  override readonly name = "MicrophoneError";
}

/**
 * Open the microphone and call `onBlock` with mono Float32 blocks at the context's rate until `stop()`.
 * The browser's voice processing (echo cancellation, noise suppression, automatic gain) is turned off: it is
 * tuned for speech and would filter and pump music.
 */
export async function startCapture(onBlock: (block: Float32Array) => void): Promise<Capture> {
  if (!navigator.mediaDevices?.getUserMedia) throw new MicrophoneError("This browser cannot record audio.");
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 },
    });
  } catch (err) {
    throw new MicrophoneError(err instanceof Error ? err.message : "Microphone access was refused.");
  }
  const stopTracks = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  let context: AudioContext;
  try {
    context = new AudioContext();
  } catch (err) {
    stopTracks();
    throw new MicrophoneError(err instanceof Error ? err.message : "Web Audio is not available.");
  }
  try {
    if (context.state === "suspended") await context.resume();
    const source = context.createMediaStreamSource(stream);
    // Nodes only run when something pulls on them: route them to the speakers through a muted gain.
    const mute = context.createGain();
    mute.gain.value = 0;
    mute.connect(context.destination);
    let stopped = false;
    let via: Capture["via"];
    let disconnect: () => void;
    if (context.audioWorklet) {
      await context.audioWorklet.addModule(WORKLET_URL);
      const node = new AudioWorkletNode(context, WORKLET_NAME, {
        numberOfInputs: 1,
        numberOfOutputs: 1,
        channelCount: 1,
        channelCountMode: "explicit",
      });
      node.port.onmessage = (e: MessageEvent<Float32Array>) => {
        if (!stopped) onBlock(e.data);
      };
      source.connect(node);
      node.connect(mute);
      via = "worklet";
      disconnect = () => {
        node.port.onmessage = null;
        source.disconnect();
        node.disconnect();
      };
    } else {
      const node = context.createScriptProcessor(4096, 1, 1);
      node.onaudioprocess = (e) => {
        if (!stopped) onBlock(e.inputBuffer.getChannelData(0).slice());
      };
      source.connect(node);
      node.connect(mute);
      via = "script-processor";
      disconnect = () => {
        node.onaudioprocess = null;
        source.disconnect();
        node.disconnect();
      };
    }
    return {
      sampleRate: context.sampleRate,
      via,
      stop: () => {
        if (stopped) return;
        stopped = true;
        disconnect();
        stopTracks();
        void context.close().catch(() => undefined);
      },
    };
  } catch (err) {
    stopTracks();
    void context.close().catch(() => undefined);
    throw new MicrophoneError(err instanceof Error ? err.message : "Could not start recording.");
  }
}
