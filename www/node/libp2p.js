// The js-libp2p a browser process of a `quasar node` cluster uses (www/node/host.js), bundled by
// scripts/build-wasm.mjs into pkg/libp2p.js (esbuild; generated, never committed): WebSocket,
// Noise, Yamux, the Ed25519 keys of the roster, and SHA3-256 for frame digests.
export { createLibp2p } from 'libp2p';
export { webSockets } from '@libp2p/websockets';
export { noise } from '@chainsafe/libp2p-noise';
export { yamux } from '@chainsafe/libp2p-yamux';
export { privateKeyFromProtobuf } from '@libp2p/crypto/keys';
export { peerIdFromString } from '@libp2p/peer-id';
export { byteStream } from '@libp2p/utils';
export { multiaddr } from '@multiformats/multiaddr';
export { sha3_256 } from '@noble/hashes/sha3.js';
