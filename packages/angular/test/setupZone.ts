// The same environment with zone.js loaded first, for the tests that run under NgZone
// (`provideZoneChangeDetection()` in their TestBed providers).
import 'zone.js';
import 'zone.js/testing';
import './setup';
