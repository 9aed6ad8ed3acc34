// Entry of the script-tag bundle: the whole core and the elements as the one global
// `PlatformEmbed`, exported as a single object so the IIFE contains no CommonJS-looking `exports.x =`.
import * as PlatformEmbed from './index';

export default PlatformEmbed;
