import { describe, expect, it } from "vitest";
import { sniffSampleRate } from "./decode";

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const u32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];
const u16 = (n: number) => [n & 255, (n >> 8) & 255];

describe("sniffSampleRate", () => {
  it("reads WAV, skipping chunks before fmt", () => {
    const wav = bytes("RIFF", u32(100), "WAVE", "LIST", u32(4), "abcd", "fmt ", u32(16), u16(1), u16(2), u32(22050));
    expect(sniffSampleRate(wav)).toBe(22050);
  });

  it("reads FLAC STREAMINFO", () => {
    // 44100 Hz = 0xAC44 in the top 20 bits of bytes 18-20.
    const flac = new Uint8Array(42);
    flac.set(bytes("fLaC"), 0);
    flac[18] = 0x0a;
    flac[19] = 0xc4;
    flac[20] = 0x42;
    expect(sniffSampleRate(flac)).toBe(44100);
  });

  it("reads Ogg Vorbis and knows Opus decodes at 48 kHz", () => {
    const vorbis = bytes("OggS", new Array(24).fill(0), "\x01vorbis", u32(0), [2], u32(32000));
    expect(sniffSampleRate(vorbis)).toBe(32000);
    expect(sniffSampleRate(bytes("OggS", new Array(24).fill(0), "OpusHead", [1, 2]))).toBe(48000);
  });

  it("reads MP3 frame headers after an ID3 tag", () => {
    const id3 = bytes("ID3", [4, 0, 0], [0, 0, 0, 4], [1, 2, 3, 4]);
    // MPEG-1 layer III, 128 kbps, 48 kHz: FF FB 94.
    expect(sniffSampleRate(Uint8Array.from([...id3, 0xff, 0xfb, 0x94, 0x00]))).toBe(48000);
    // MPEG-2 layer III, 22.05 kHz: FF F3 ... with rate index 0.
    expect(sniffSampleRate(Uint8Array.from([0xff, 0xf3, 0x80, 0x00]))).toBe(22050);
  });

  it("reads the mp4a sample entry of an M4A", () => {
    const entry = bytes("mp4a", new Array(6).fill(0), u16(1), new Array(8).fill(0), [0, 2, 0, 16], [0, 0, 0, 0]);
    const m4a = bytes([0, 0, 0, 24], "ftypM4A ", new Array(12).fill(0), [...entry], [0xac, 0x44, 0, 0]);
    expect(sniffSampleRate(m4a)).toBe(44100);
  });

  it("gives up on anything else", () => {
    expect(sniffSampleRate(bytes("not audio at all"))).toBeNull();
  });
});
