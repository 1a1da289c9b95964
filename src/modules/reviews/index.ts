import type { HttpModule } from '../../platform/module.js';
import type { Guards } from '../../platform/auth.js';
import { agentReviewsRoutes, customerReviewRoutes, ownerReviewsRoutes } from './reviews.routes.js';
import { reviewsSchemas } from './reviews.schemas.js';
import type { ReviewsService } from './reviews.service.js';

export { createReviewsService, type ReviewsService } from './reviews.service.js';

/** What the reviews module's routes need (services.ts supplies them). */
export interface ReviewsModuleDeps {
  reviews: ReviewsService;
  guards: Guards;
}

/** Reviews from real proposals: agents read and submit, customers publish by their link, owners answer, administrators moderate. */
export const reviewsModule: HttpModule<ReviewsModuleDeps> = {
  name: 'reviews',
  schemas: reviewsSchemas,
  async agentRoutes(agent, { reviews, guards }) {
    await agent.register(agentReviewsRoutes, { reviews, guards });
  },
  async routes(app, { reviews, guards }) {
    await app.register(ownerReviewsRoutes, { prefix: '/api/tools', reviews, guards });
    await app.register(customerReviewRoutes, { prefix: '/reviews', reviews });
  },
};
