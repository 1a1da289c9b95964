-- The widget's "Powered by" line (issue 13): shown unless the owner turned it off, which only a plan with
-- widget_unbranded allows; when that plan lapses the line shows again (decided when the widget is served).
ALTER TABLE widget_configs ADD COLUMN show_branding boolean NOT NULL DEFAULT true;
