declare module "audio-type" {
  /** The audio format the bytes look like ('mp3', 'wav', 'oga', ...), or undefined. */
  export default function audioType(buf: Uint8Array | ArrayBuffer): string | undefined;
}
