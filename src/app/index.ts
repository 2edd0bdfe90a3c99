import type { H3 } from "h3";
import { readSession } from "../accounts/session.ts";
import type { Platform } from "../kernel/platform.ts";
import { registerAppApi } from "./api.ts";
import { registerPasswordReset } from "./auth-pages/password.ts";
import { registerSignIn } from "./auth-pages/sign-in.ts";
import { registerSignUp } from "./auth-pages/sign-up.ts";
import { redirect } from "./guard.ts";
import { registerFormRecipientPages } from "./pages/form-recipients.ts";
import { registerPages } from "./pages/index.ts";

/** The app host (`{app_url}`): accounts, the dashboard and its same-origin API calls. */
export function registerApp(app: H3, platform: Platform): void {
  // The dashboard's root: signed out, the sign-in page; signed in, the websites of the user's oldest organization.
  app.get("/", async (event) => {
    const signedIn = await readSession(platform, event.req);
    if (!signedIn) return redirect("/signin");
    const memberships = await platform.db.read((stores) =>
      stores.organizations.membershipsOfUser(signedIn.user.id),
    );
    const first = [...memberships].sort((a, b) => a.createdAt - b.createdAt)[0];
    return redirect(first ? `/orgs/${encodeURIComponent(first.organizationId)}/websites` : "/orgs/new");
  });
  registerSignUp(app, platform);
  registerSignIn(app, platform);
  registerPasswordReset(app, platform);
  registerFormRecipientPages(app, platform);
  registerAppApi(app, platform);
  registerPages(app, platform);
}
