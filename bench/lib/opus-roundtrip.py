"""Opus round trip through the system's libopus (ctypes), for bench/fingerprint.ts.

Usage: python3 opus-roundtrip.py BITRATE IN OUT
IN holds clips as [uint32 sample count][float32 mono samples at 48 kHz]...; OUT receives the decoded clips in the
same layout. Exits with status 3 when libopus cannot be loaded, so the benchmark can say the condition was skipped.
"""

import ctypes
import ctypes.util
import struct
import sys

RATE = 48000
FRAME = 960  # 20 ms, the usual frame size for voice and music over WebRTC/MediaRecorder
OPUS_APPLICATION_AUDIO = 2049
OPUS_SET_BITRATE_REQUEST = 4002
OPUS_GET_LOOKAHEAD_REQUEST = 4027


def main() -> int:
    bitrate, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    name = ctypes.util.find_library("opus")
    if not name:
        return 3
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return 3
    err = ctypes.c_int()
    lib.opus_encoder_create.restype = ctypes.c_void_p
    lib.opus_decoder_create.restype = ctypes.c_void_p
    lib.opus_encode_float.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    lib.opus_decode_float.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
    ]
    lib.opus_encoder_destroy.argtypes = [ctypes.c_void_p]
    lib.opus_decoder_destroy.argtypes = [ctypes.c_void_p]
    data = open(src, "rb").read()
    out = bytearray()
    pos = 0
    packet = ctypes.create_string_buffer(4000)
    pcm_out = (ctypes.c_float * FRAME)()
    while pos < len(data):
        (n,) = struct.unpack_from("<I", data, pos)
        pos += 4
        samples = data[pos : pos + 4 * n]
        pos += 4 * n
        enc = lib.opus_encoder_create(RATE, 1, OPUS_APPLICATION_AUDIO, ctypes.byref(err))
        dec = lib.opus_decoder_create(RATE, 1, ctypes.byref(err))
        lib.opus_encoder_ctl(ctypes.c_void_p(enc), ctypes.c_int(OPUS_SET_BITRATE_REQUEST), ctypes.c_int(bitrate))
        lookahead = ctypes.c_int()
        lib.opus_encoder_ctl(ctypes.c_void_p(enc), ctypes.c_int(OPUS_GET_LOOKAHEAD_REQUEST), ctypes.byref(lookahead))
        decoded = bytearray()
        # opus_encoder_ctl is variadic, so its arguments carry explicit C types above.
        # Feed extra silence so the codec delay (lookahead) can be cut off and the clip keeps its timing.
        samples = samples + b"\0" * (4 * (lookahead.value + FRAME))
        for start in range(0, n + lookahead.value, FRAME):
            chunk = samples[4 * start : 4 * (start + FRAME)]
            chunk = chunk + b"\0" * (4 * FRAME - len(chunk))
            pcm_in = (ctypes.c_float * FRAME).from_buffer_copy(chunk)
            size = lib.opus_encode_float(enc, pcm_in, FRAME, packet, len(packet))
            if size < 0:
                return 4
            got = lib.opus_decode_float(dec, packet, size, pcm_out, FRAME, 0)
            if got < 0:
                return 4
            decoded += bytes(pcm_out)[: 4 * got]
        lib.opus_encoder_destroy(enc)
        lib.opus_decoder_destroy(dec)
        decoded = decoded[4 * lookahead.value : 4 * (lookahead.value + n)]
        out += struct.pack("<I", len(decoded) // 4) + decoded
    open(dst, "wb").write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
