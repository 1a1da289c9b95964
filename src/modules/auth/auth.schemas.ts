import { Type, type Static } from 'typebox';

const purpose = (extra: { default?: 'login' } = {}) =>
  Type.Union([Type.Literal('login'), Type.Literal('verify'), Type.Literal('crawl')], {
    description: 'login: sign in (or sign up); verify: also become an owner of the company at website_url; crawl: verify, then crawl the website',
    ...extra,
  });
export const OwnerPurposeSchema = purpose();
export type OwnerPurpose = Static<typeof OwnerPurposeSchema>;

const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, description: 'Email address' });

export const MagicLinkRequestSchema = Type.Object(
  {
    email: Email,
    purpose: Type.Optional(purpose({ default: 'login' })),
    website_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "Required for purposes verify and crawl: the company's website (URL or domain). The email's domain must be the website's domain or a parent of it." })),
  },
  { $id: 'MagicLinkRequest', additionalProperties: false },
);

export const MagicLinkSentSchema = Type.Object(
  {
    message: Type.String(),
    purpose: OwnerPurposeSchema,
    expires_in_minutes: Type.Integer(),
    website_url: Type.Optional(Type.String()),
  },
  { $id: 'MagicLinkSent' },
);

export const UserSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    last_login_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    company_ids: Type.Array(Type.String({ format: 'uuid' }), { description: 'Companies this user owns (manage them under /api/tools)' }),
  },
  { $id: 'User' },
);

export const AdminSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    last_login_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'Admin' },
);

const tokenFields = {
  access_token: Type.String({ description: 'Send as Authorization: Bearer <access_token>' }),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the token expires' }),
};

export const OwnerTokenSchema = Type.Object(
  {
    ...tokenFields,
    purpose: OwnerPurposeSchema,
    user: Type.Ref('User'),
    company_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'For verify and crawl: the company the user now owns' }),
    crawl_job: Type.Optional(Type.Unknown({ description: 'For crawl: the crawl that was started' })),
    crawl_error: Type.Optional(Type.String({ description: 'For crawl: why the crawl could not start (ownership still holds)' })),
  },
  { $id: 'OwnerToken' },
);

export const MeResponseSchema = Type.Object({ ...tokenFields, user: Type.Ref('User') }, { $id: 'OwnerMe' });

export const AdminTokenSchema = Type.Object({ ...tokenFields, admin: Type.Ref('Admin') }, { $id: 'AdminToken' });

export const VerifyMagicQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200 }),
  purpose: Type.Optional(purpose({ default: 'login' })),
});

export const AdminLoginBody = Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 1024 }) }, { additionalProperties: false });
export const AdminMagicLinkBody = Type.Object({ email: Email }, { additionalProperties: false });
export const AdminVerifyQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const MessageSchema = Type.Object({ message: Type.String() });
export const AdminLinkSentSchema = Type.Object({ message: Type.String(), expires_in_minutes: Type.Integer() });
export const CleanupSchema = Type.Object({ deleted: Type.Integer({ description: 'Expired or used magic tokens removed' }) });

/** The confirm page's form posts these (urlencoded). */
export const ConfirmForm = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200 }),
  purpose: Type.Optional(purpose({ default: 'login' })),
});
