// The threshold tab's page: its elements, its state and the URL's presets, shared by the
// modules that draw the tab (www/threshold-form.js, www/tiles.js, www/run-view.js) and the one
// that runs its actions (www/threshold.js). One place, so every module sees the same state.

import { setStatus as setLine } from './util.js';

export const $ = (id) => document.getElementById(id);

export const el = {
  status: $('status'),
  error: $('error'),
  errorText: $('error-text'),
  errorDismiss: $('error-dismiss'),
  scheme: $('scheme'),
  level: $('pq-level'),
  levelField: $('level-field'),
  curve: $('curve'),
  curveField: $('curve-field'),
  trust: $('trust-model'),
  parties: $('parties'),
  threshold: $('threshold'),
  workers: $('workers'),
  cheater: $('cheater'),
  cheatMode: $('cheat-mode'),
  paramsHint: $('params-hint'),
  runCeremony: $('run-ceremony'),
  runAll: $('run-all'),
  stop: $('stop'),
  elapsed: $('elapsed'),
  mainThread: $('main-thread'),
  pipeline: $('pipeline'),
  grid: $('party-grid'),
  partySummary: $('party-summary'),
  rounds: $('rounds'),
  message: $('message'),
  messageBytes: $('message-bytes'),
  sign: $('sign'),
  verifyResult: $('verify-result'),
  verifyDetail: $('verify-detail'),
  signers: $('signers'),
  sigSize: $('sig-size'),
  sigHex: $('sig-hex'),
  reshareN: $('reshare-n'),
  reshareT: $('reshare-t'),
  reshare: $('reshare'),
  activationResult: $('activation-result'),
  activationDetail: $('activation-detail'),
  generation: $('generation'),
  groupShape: $('group-shape'),
  groupKey: $('group-key'),
  keyHistory: $('key-history'),
  blame: $('blame'),
  phaseTable: $('phase-table'),
  partyTable: $('party-table'),
  tables: $('tables'),
  reshareHint: $('reshare-hint'),
  timeline: $('timeline'),
  storyNow: $('story-now'),
  storyNowText: $('story-now-text'),
};

export const params = new URLSearchParams(location.search);

export const app = {
  pool: null,
  poolSize: 0,
  run: null, // the current Run (a group of parties with their key)
  busy: false,
  thresholdTouched: false,
  reshareNTouched: false, // the reshare fields follow K until edited
  reshareTTouched: false,
  failure: null, // the last action's failure (the blame card says so, not "nothing detected")
  tiles: new Map(), // key -> { el, base, label, busy }
  roundRows: new Map(), // token -> row element
  blames: [],
  keyHistory: [], // [{ generation, hex, n, t }]
  stopRequested: false,
};

/** The tab's status line (data-state idle, running, done or error). */
export const setStatus = (state, text) => setLine(el.status, state, text);
