import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { widgetPublicRoutes, widgetRoutes, widgetScriptRoutes } from './widget.routes.js';
import { widgetSchemas } from './widget.schemas.js';

/** The chat widget: owners' settings, the public chat endpoints and the embeddable script. */
export const widgetModule: HttpModule<CoreServices> = {
  name: 'widget',
  schemas: widgetSchemas,
  async routes(app, { widget, guards }) {
    await app.register(widgetRoutes, { prefix: '/api/widget', widget, guards });
    await app.register(widgetPublicRoutes, { prefix: '/api/widget/public', widget });
    await app.register(widgetScriptRoutes);
  },
};
