import { defineElements } from './elements';

// The one side effect of this package: importing it (or loading the script tag) defines the elements.
defineElements();
