import { describe, expect, it } from 'vitest';
import { decideAccess, isUuid } from '@/app/guard';
import { UUID, makeInfo, makeUser } from './shell/fixtures';

const info = makeInfo({ search: true, selection: true });
const verified = makeUser();
const unverified = makeUser({ verified_email: false });
const unverifiedAdmin = makeUser({ verified_email: false, is_admin: true });

describe('decideAccess', () => {
  it('allows an open route to anyone once the server info is known', () => {
    expect(decideAccess(info, null, {}, '/browse/')).toEqual({ kind: 'allow' });
    expect(decideAccess(info, unverified, {}, '/browse/')).toEqual({ kind: 'allow' });
  });

  it('sends everyone to the unreachable page without server info, before any other check', () => {
    expect(decideAccess(null, null, {}, '/')).toEqual({ kind: 'unreachable' });
    expect(
      decideAccess(
        null,
        null,
        { feature: 'search', login: true, verified: true, uuidParams: ['id'] },
        '/x',
        { id: 'nope' },
      ),
    ).toEqual({ kind: 'unreachable' });
  });

  it('answers not found for a route whose feature is off', () => {
    const noSearch = makeInfo({ search: false });
    expect(decideAccess(noSearch, verified, { feature: 'search' }, '/search')).toEqual({
      kind: 'not-found',
    });
    expect(decideAccess(info, verified, { feature: 'search' }, '/search')).toEqual({
      kind: 'allow',
    });
  });

  it('checks the feature before login: an anonymous visitor is not asked to log in for nothing', () => {
    const noSelection = makeInfo({ selection: false });
    expect(
      decideAccess(
        noSelection,
        null,
        { feature: 'selection', verified: true },
        '/elements/selected',
      ),
    ).toEqual({ kind: 'not-found' });
  });

  it('answers not found for an id parameter that is not a UUID, before asking to log in', () => {
    const access = { login: true, uuidParams: ['id'] };
    expect(decideAccess(info, null, access, '/process/12', { id: '12' })).toEqual({
      kind: 'not-found',
    });
    expect(decideAccess(info, verified, access, '/process/x', {})).toEqual({ kind: 'not-found' });
    expect(decideAccess(info, verified, access, `/process/${UUID}`, { id: UUID })).toEqual({
      kind: 'allow',
    });
  });

  it('accepts upper-case UUIDs and rejects near misses', () => {
    expect(isUuid(UUID.toUpperCase())).toBe(true);
    expect(isUuid(`${UUID}0`)).toBe(false);
    expect(isUuid(UUID.replace(/-/g, ''))).toBe(false);
    expect(isUuid(undefined)).toBe(false);
  });

  it('sends anonymous users to login with next set to the full path, query included', () => {
    const fullPath = `/process/${UUID}/3?page=2#top`;
    expect(decideAccess(info, null, { login: true }, fullPath)).toEqual({
      kind: 'login',
      next: fullPath,
    });
    // A route needing verification needs a login first.
    expect(decideAccess(info, null, { verified: true }, '/corpus/new')).toEqual({
      kind: 'login',
      next: '/corpus/new',
    });
  });

  it('lets any logged-in user through a login-only route', () => {
    expect(decideAccess(info, unverified, { login: true }, '/process/')).toEqual({
      kind: 'allow',
    });
  });

  it('sends unverified users to the unverified page for a route needing verification', () => {
    expect(decideAccess(info, unverified, { login: true, verified: true }, '/corpus/new')).toEqual({
      kind: 'unverified',
    });
    expect(decideAccess(info, verified, { login: true, verified: true }, '/corpus/new')).toEqual({
      kind: 'allow',
    });
  });

  it('counts an admin as verified even without a verified e-mail', () => {
    expect(decideAccess(info, unverifiedAdmin, { verified: true }, '/corpus/new')).toEqual({
      kind: 'allow',
    });
  });
});
