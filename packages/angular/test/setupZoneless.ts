// Zoneless, as Angular 21's TestBed is by default; said explicitly, as Angular 20's TestBed needs it.
import { provideZonelessChangeDetection } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { beforeEach } from 'vitest';
import './setup';

// (Not in the server rendering test, which runs in Node without a DOM and without TestBed.)
if (typeof document != 'undefined') beforeEach(() => TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection()] }));
