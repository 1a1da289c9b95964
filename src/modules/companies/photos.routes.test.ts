import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { bearer, companyFixture, multipartForm, seedCompanies, signInOwner, until, useTestApp } from '../../../test/helpers/index.js';
import { PHOTO_MAX_BYTES, PHOTO_MAX_COUNT } from './photo-limits.js';

/** A camera-like JPEG: EXIF with a GPS position and a camera model, rotated by its orientation tag. */
const cameraJpeg = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a7' } })
  .jpeg()
  .withMetadata({ orientation: 6 })
  .withExif({ IFD0: { Make: 'SecretCam', Model: 'X100' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 0/1' } })
  .toBuffer();
const png = (w = 64, h = 48) => sharp({ create: { width: w, height: h, channels: 4, background: { r: 200, g: 10, b: 10, alpha: 0.5 } } }).png().toBuffer();

describe('photos (issue 39): an owner\'s gallery, resized and stripped of metadata, on the profile agents read', () => {
  const t = useTestApp();
  let company: string;
  let other: string;
  let token: string;
  let strangerToken: string;

  before(async () => {
    [company, other] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Kiln Pottery', website_url: 'https://kiln-pottery.example', description: 'Hand-thrown stoneware and pottery classes.', city: 'Leeds', country: 'United Kingdom' }),
      companyFixture({ name: 'Other Studio', website_url: 'https://other-studio.example', description: 'Prints.' }),
    ])) as [string, string];
    token = (await signInOwner(t, 'owner@kiln-pottery.example', 'https://kiln-pottery.example')).token;
    strangerToken = (await signInOwner(t, 'owner@other-studio.example', 'https://other-studio.example')).token;
  });

  const upload = (id: string, file: Buffer, extra: { caption?: string; auth?: string | null } = {}) => {
    const { payload, headers } = multipartForm([{ name: 'file', data: file, filename: 'photo.jpg', contentType: 'image/jpeg' }, ...(extra.caption !== undefined ? [{ name: 'caption', data: extra.caption }] : [])]);
    return t.app.inject({ method: 'POST', url: `/api/tools/${id}/photos`, payload, headers: { ...headers, ...(extra.auth === null ? {} : bearer(extra.auth ?? token)) } });
  };
  const profile = async (id = company) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id}` })).json();

  it('stores an upload as an upright JPEG of at most 1600 px with no EXIF, GPS or camera left, and agents see its URL and size', async () => {
    const feed = async (since = '') => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/changes?limit=500${since ? `&since=${since}` : ''}` })).json();
    let page = await feed();
    while (page.has_more) page = await feed(page.next_cursor);

    const original = await cameraJpeg(3000, 2000);
    assert.ok((await sharp(original).metadata()).exif && original.includes(Buffer.from('SecretCam')), 'the upload carries EXIF');
    const res = await upload(company, original, { caption: '  The studio kiln  ' });
    assert.equal(res.statusCode, 201, res.body);
    const { photo, photos, max_photos } = res.json();
    assert.equal(max_photos, PHOTO_MAX_COUNT);
    assert.deepEqual(photos.map((p: { id: string }) => p.id), [photo.id]);
    // Orientation 6 turns the 3000×2000 picture upright (2000×3000), then it is fitted into 1600 px.
    assert.deepEqual([photo.width, photo.height, photo.caption], [1067, 1600, 'The studio kiln']);
    assert.match(photo.url, new RegExp(`/api/tools/${company}/photos/${photo.id}$`));

    const served = await t.app.inject({ method: 'GET', url: new URL(photo.url).pathname });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/jpeg');
    const meta = await sharp(served.rawPayload).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 1067, 1600]);
    assert.equal(meta.exif, undefined, 'no EXIF block (camera, GPS) is kept');
    assert.equal(meta.orientation, undefined);
    assert.ok(!served.rawPayload.includes(Buffer.from('SecretCam')));
    const again = await t.app.inject({ method: 'GET', url: new URL(photo.url).pathname, headers: { 'if-none-match': served.headers.etag as string } });
    assert.equal(again.statusCode, 304);

    assert.deepEqual((await profile()).photos, [photo]);
    await until(() => feed(page.next_cursor), (after) => after.changes.some((c: { id: string }) => c.id === company), 'the gallery change in the change feed');
  });

  it('captions and moves a photo, removes one (its URL is gone), and keeps the history', async () => {
    const second = (await upload(company, await png(), { caption: 'Glazes' })).json().photo;
    const first = (await profile()).photos[0];
    const moved = await t.app.inject({ method: 'PATCH', url: `/api/tools/${company}/photos/${second.id}`, headers: bearer(token), payload: { position: 0, caption: 'Our glazes' } });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(moved.json().photos.map((p: { id: string; caption: string }) => [p.id, p.caption]), [[second.id, 'Our glazes'], [first.id, 'The studio kiln']]);
    assert.equal(second.width, 64, 'a small picture is never enlarged');

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/tools/${company}/photos/${first.id}`, headers: bearer(token) });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual(removed.json().photos.map((p: { id: string }) => p.id), [second.id]);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/${company}/photos/${first.id}` })).statusCode, 404);
    const history = (await t.app.inject({ method: 'GET', url: `/api/tools/${company}/history`, headers: bearer(token) })).json();
    assert.ok(history.edits.some((e: { source: string }) => e.source === 'photos'));
    // Moving a photo to where it is changes nothing and records nothing.
    const same = await t.app.inject({ method: 'PATCH', url: `/api/tools/${company}/photos/${second.id}`, headers: bearer(token), payload: { position: 0 } });
    assert.equal(same.statusCode, 200, same.body);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/${company}/history`, headers: bearer(token) })).json().total, history.total);
  });

  it('the public page shows the gallery with alt text and its JSON-LD lists the images', async () => {
    const [photo] = (await profile()).photos;
    const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [company]))[0]!.slug;
    const page = await t.app.inject({ method: 'GET', url: `/companies/${slug}` });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`<img src="${photo.url}" alt="Our glazes" width="64" height="48" loading="lazy">`), 'the photo, its caption as alt text');
    assert.ok(page.body.includes(`"image":[{"@type":"ImageObject","contentUrl":"${photo.url}","width":64,"height":48,"caption":"Our glazes"}]`));
  });

  it('refuses what is not a photo (415), too large a file (413), bad fields (422) and a full gallery (409), changing nothing', async () => {
    const before = (await profile()).photos;
    assert.equal((await upload(company, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).statusCode, 415, 'SVG is not a photo');
    assert.equal((await upload(company, Buffer.from('hello'))).statusCode, 415);
    const big = Buffer.concat([await png(), Buffer.alloc(PHOTO_MAX_BYTES)]);
    const tooBig = await upload(company, big);
    assert.equal(tooBig.statusCode, 413);
    assert.match(tooBig.json().detail, /larger than 8 MB/);
    const longCaption = await upload(company, await png(), { caption: 'x'.repeat(201) });
    assert.equal(longCaption.statusCode, 422);
    assert.deepEqual(longCaption.json().detail[0].loc, ['body', 'caption']);
    const bare = await t.app.inject({ method: 'POST', url: `/api/tools/${company}/photos`, headers: { ...bearer(token), 'content-type': 'application/json' }, payload: {} });
    assert.equal(bare.statusCode, 415);
    const badPatch = await t.app.inject({ method: 'PATCH', url: `/api/tools/${company}/photos/${before[0].id}`, headers: bearer(token), payload: { position: -1 } });
    assert.equal(badPatch.statusCode, 422);
    assert.deepEqual((await profile()).photos, before);

    for (let i = before.length; i < PHOTO_MAX_COUNT; i++) assert.equal((await upload(company, await png(32, 32))).statusCode, 201);
    const full = await upload(company, await png(32, 32));
    assert.equal(full.statusCode, 409);
    assert.match(full.json().detail, /at most 12 photos/);
    assert.equal((await profile()).photos.length, PHOTO_MAX_COUNT);
  });

  it('needs the owner: no credential is 401, another owner\'s company is 404, and a photo of another company is not found', async () => {
    const photoId = (await profile()).photos[0].id;
    assert.equal((await upload(company, await png(), { auth: null })).statusCode, 401);
    assert.equal((await upload(company, await png(), { auth: strangerToken })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/tools/${company}/photos/${photoId}`, headers: bearer(strangerToken) })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/tools/${company}/photos/${photoId}`, payload: { caption: 'x' } })).statusCode, 401);
    // The stranger's own company, with this company's photo id: not theirs to change or read.
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/tools/${other}/photos/${photoId}`, headers: bearer(strangerToken) })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/${other}/photos/${photoId}` })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/${company}/photos/not-a-uuid` })).statusCode, 422);
    assert.equal((await profile()).photos.length, PHOTO_MAX_COUNT);
    assert.deepEqual((await profile(other)).photos, []);
  });
});
