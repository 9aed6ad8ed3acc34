import { RenderMode, type ServerRoute } from '@angular/ssr';

// Rendered for every request (never prerendered: the page embeds a platform given in its query).
export const serverRoutes: ServerRoute[] = [{ path: '**', renderMode: RenderMode.Server }];
