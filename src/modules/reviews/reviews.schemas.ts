import { Type, type Static } from 'typebox';
import { offsetParam } from '../../platform/http.js';

const Stars = Type.Integer({ minimum: 1, maximum: 5, description: '1 (poor) to 5 (excellent)' });

export const RatingSchema = Type.Object(
  {
    average: Type.Union([Type.Number(), Type.Null()], { description: 'Mean of the published reviews, one decimal; null without any' }),
    count: Type.Integer({ description: 'Published reviews' }),
    distribution: Type.Object({ 1: Type.Integer(), 2: Type.Integer(), 3: Type.Integer(), 4: Type.Integer(), 5: Type.Integer() }, { description: 'Published reviews per star' }),
  },
  { $id: 'Rating', description: 'Only reviews by the customers of proposals the company approved through the directory' },
);
export type Rating = Static<typeof RatingSchema>;

export const ReviewSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    company_id: Type.String({ format: 'uuid' }),
    rating: Stars,
    text: Type.String({ description: 'Plain text, as the customer published it' }),
    author: Type.String({ description: 'The customer\'s first name and initial' }),
    written_by: Type.Union([Type.Literal('customer'), Type.Literal('agent')], { description: 'customer: written on the review page; agent: written by the customer\'s AI assistant and confirmed by the customer' }),
    published_at: Type.String({ format: 'date-time' }),
    reply: Type.Union([Type.Object({ text: Type.String(), replied_at: Type.String({ format: 'date-time' }) }), Type.Null()], { description: 'The company\'s public answer (one)' }),
  },
  { $id: 'Review' },
);
export type Review = Static<typeof ReviewSchema>;

export const ReviewListSchema = Type.Object(
  { reviews: Type.Array(Type.Ref('Review')), rating: Type.Ref('Rating'), offset: Type.Integer(), limit: Type.Integer() },
  { $id: 'ReviewList' },
);
/** The list as code reads it (the schema's Type.Refs resolve to these). */
export interface ReviewList { reviews: Review[]; rating: Rating; offset: number; limit: number }

export const ReviewListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  offset: offsetParam(),
});

export const AgentReviewBody = Type.Object({
  rating: Stars,
  text: Type.String({ minLength: 1, maxLength: 2000, description: 'What the customer said about the work, in their words' }),
});

export const AgentReviewResultSchema = Type.Object(
  {
    review_id: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('held'), Type.Literal('published')]),
    message: Type.String(),
  },
  { $id: 'AgentReviewResult' },
);
export type AgentReviewResult = Static<typeof AgentReviewResultSchema>;

export const REPORT_REASONS = ['fake', 'offensive', 'personal_data', 'wrong_company', 'other'] as const;
export const ReportReviewBody = Type.Object({
  reason: Type.Union(REPORT_REASONS.map((r) => Type.Literal(r)), { description: 'fake, offensive, personal_data, wrong_company or other' }),
  note: Type.Optional(Type.String({ maxLength: 1000 })),
});

export const ReplyReviewBody = Type.Object({ text: Type.String({ minLength: 1, maxLength: 2000, description: 'The company\'s public answer; one per review, final' }) });

export const ReviewIdParams = Type.Object({ review_id: Type.String({ format: 'uuid' }) });
export const ToolReviewParams = Type.Object({ tool_id: Type.String({ format: 'uuid' }), review_id: Type.String({ format: 'uuid' }) });

export const ManagedReviewSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    proposal_id: Type.String({ format: 'uuid' }),
    company_id: Type.String({ format: 'uuid' }),
    company_name: Type.String(),
    status: Type.Union([Type.Literal('published'), Type.Literal('hidden')]),
    rating: Stars,
    text: Type.String(),
    author: Type.String(),
    written_by: Type.Union([Type.Literal('customer'), Type.Literal('agent')]),
    published_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    reply: Type.Union([Type.Object({ text: Type.String(), replied_at: Type.String({ format: 'date-time' }) }), Type.Null()]),
    reports: Type.Array(Type.Object({ reporter: Type.String({ description: 'owner or agent' }), reason: Type.String(), reported_at: Type.String({ format: 'date-time' }) }), { description: 'Open reports' }),
  },
  { $id: 'ManagedReview' },
);
export type ManagedReview = Static<typeof ManagedReviewSchema>;

export const ManagedReviewListSchema = Type.Object(
  {
    reviews: Type.Array(Type.Ref('ManagedReview'), { description: 'The latest 100, newest first' }),
    rating: Type.Ref('Rating', { description: 'Over all published reviews, as agents and the public page read it' }),
  },
  { $id: 'ManagedReviewList' },
);

export const ReportedReviewListSchema = Type.Object(
  { reviews: Type.Array(Type.Ref('ManagedReview'), { description: 'At most 100, oldest report first' }) },
  { $id: 'ReportedReviewList' },
);

export const reviewsSchemas = [RatingSchema, ReviewSchema, ReviewListSchema, AgentReviewResultSchema, ManagedReviewSchema, ManagedReviewListSchema, ReportedReviewListSchema];
