import { Type } from 'typebox';
import { PHOTO_MAX_COUNT } from './photo-limits.js';

export const WebsiteSuggestionIdParams = Type.Object({ tool_id: Type.String({ format: 'uuid' }), suggestion_id: Type.String({ format: 'uuid' }) });

export const WebsiteCheckSchema = Type.Object(
  {
    monthly: Type.Boolean({ description: 'The site is read again every month; what differs waits here for your approval' }),
    next_check_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    last_check_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    suggestion: Type.Union([
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        found_at: Type.String({ format: 'date-time' }),
        changes: Type.Record(Type.String(), Type.Object({ current: Type.Unknown(), proposed: Type.Unknown() }), {
          description: 'Per field: the profile\'s value and what the website now says. Nothing is changed until you accept it',
        }),
        photos: Type.Array(Type.Object({ url: Type.String(), caption: Type.String() }), { description: 'Pictures on your website you may add to the gallery' }),
      }),
      Type.Null(),
    ], { description: 'What the latest check (or your latest crawl) found; null when there is nothing to decide' }),
  },
  { $id: 'WebsiteCheck' },
);

export const WebsiteCheckBody = Type.Object({ monthly: Type.Boolean() });

export const AcceptSuggestionBody = Type.Object({
  fields: Type.Array(Type.String({ maxLength: 40 }), { maxItems: 30, default: [], description: 'The fields to take from the website (keys of suggestion.changes)' }),
  photos: Type.Array(Type.String({ maxLength: 2000 }), { maxItems: PHOTO_MAX_COUNT, default: [], description: 'The pictures to add to the gallery (urls of suggestion.photos)' }),
});

export const AcceptSuggestionResultSchema = Type.Object(
  {
    applied_fields: Type.Array(Type.String()),
    photos_added: Type.Array(Type.String()),
    problems: Type.Array(Type.String(), { description: 'Pictures that could not be added, as sentences' }),
    check: Type.Ref('WebsiteCheck'),
  },
  { $id: 'AcceptSuggestionResult' },
);

export const websiteCheckSchemas = [WebsiteCheckSchema, AcceptSuggestionResultSchema];
