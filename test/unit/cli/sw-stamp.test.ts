import { describe, expect, it } from 'vitest';
import { describeSwIdentity, readSwIdentity, swBanner } from '../../../cli/sw-stamp';

describe('readSwIdentity', () => {
  it('reads the stamp from the banner the build writes, whatever the minifier did below it', () => {
    const code = `${swBanner('0.1.0', 'af7b423a6a5b7c31')}(function(){var e=1})();`;
    expect(readSwIdentity(code)).toEqual({ kind: 'stamped', version: '0.1.0', checksum: 'af7b423a6a5b7c31' });
    expect(describeSwIdentity(readSwIdentity(code))).toBe('0.1.0 (af7b423a)');
  });

  it('recognises a copy from before the banner by its message type string', () => {
    expect(readSwIdentity('(function(){e.type===`sw.version.query`})();')).toEqual({ kind: 'unstamped' });
  });

  it('calls anything else foreign, a damaged banner included', () => {
    expect(readSwIdentity("self.addEventListener('fetch', () => {});")).toEqual({ kind: 'foreign' });
    expect(readSwIdentity('// inpage-llm service worker {not json\nx')).toEqual({ kind: 'foreign' });
    expect(readSwIdentity('')).toEqual({ kind: 'foreign' });
  });
});
