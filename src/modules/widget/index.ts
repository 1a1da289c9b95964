import type { HttpModule } from '../../platform/module.js';
import type { Guards } from '../../platform/auth.js';
import type { WidgetService } from './widget.service.js';
import { widgetPublicRoutes, widgetRoutes, widgetScriptRoutes } from './widget.routes.js';
import { widgetSchemas } from './widget.schemas.js';

/** What the widget module's routes need (services.ts supplies them). */
export interface WidgetModuleDeps {
  widget: WidgetService;
  guards: Guards;
}

/** The chat widget: owners' settings, the public chat endpoints and the embeddable script. */
export const widgetModule: HttpModule<WidgetModuleDeps> = {
  name: 'widget',
  schemas: widgetSchemas,
  async routes(app, { widget, guards }) {
    await app.register(widgetRoutes, { prefix: '/api/widget', widget, guards });
    await app.register(widgetPublicRoutes, { prefix: '/api/widget/public', widget });
    await app.register(widgetScriptRoutes);
  },
};
