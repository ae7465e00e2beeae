import { MESSAGES, type Me } from "@unheard/shared";
import { format, parseISO } from "date-fns";
import { Mic2, Pencil, ShieldCheck, Trophy, Upload as UploadIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { handleFormError } from "../../lib/api/form-errors";
import { plural } from "../../lib/format";
import { loginPathFor } from "../../lib/safe-next";
import { toast } from "../../lib/toast";
import { Button, LinkButton } from "../../ui/button";
import { SubmitButton } from "../../ui/form-actions";
import { FormTextField, PasswordField } from "../../ui/form-fields";
import { Notice } from "../../ui/notice";
import { PageHeader, Panel, usePageTitle } from "../../ui/page";
import { Spinner } from "../../ui/spinner";
import { TextField } from "../../ui/text-field";
import { NotificationSettingsPanel } from "../notifications/notification-settings";
import { useChangePassword, useUpdateProfile } from "./auth";
import { useMe } from "./me";
import { PROFILE_FIELDS, type ProfileForm, profileResolver } from "./profile-form";
import { RoleBadge } from "./role-badge";
import { UserAvatar } from "./user-avatar";

function emptyForm(me: Me): ProfileForm {
  return { username: me.username, currentPassword: "", newPassword: "", confirmPassword: "" };
}

/** /profile: role badge, points, read-only e-mail; Edit Profile for the username and the password. */
export function ProfilePage() {
  const { me, isLoading, isFallback } = useMe();
  if (isLoading) {
    return (
      <>
        <PageHeader title="Profile" />
        <Spinner />
      </>
    );
  }
  if (!me) return <LoggedOut />;
  return <ProfileView me={me} isFallback={isFallback} />;
}

function LoggedOut() {
  usePageTitle("Profile");
  return (
    <Panel className="mx-auto flex max-w-lg flex-col items-center gap-4 py-12 text-center">
      <h1 className="text-xl font-semibold text-white">{MESSAGES.loginToViewProfile}</h1>
      <p className="text-sm text-zinc-400">Your points, role and account settings live here.</p>
      <div className="flex gap-2">
        <LinkButton to={loginPathFor("/profile")}>Log In</LinkButton>
        <LinkButton to="/register" variant="secondary">
          Register
        </LinkButton>
      </div>
    </Panel>
  );
}

function Stat({ label, value, icon }: { label: string; value: ReactNode; icon: ReactNode }) {
  return (
    <div className="flex items-center gap-3 rounded-2xl border border-white/[0.06] bg-zinc-900/60 px-4 py-3.5">
      <span className="grid size-10 place-items-center rounded-xl bg-white/5">{icon}</span>
      <div className="min-w-0">
        <p className="text-xs font-medium uppercase tracking-wider text-zinc-500">{label}</p>
        <p className="truncate text-lg font-semibold text-white">{value}</p>
      </div>
    </div>
  );
}

function ProfileView({ me, isFallback }: { me: Me; isFallback: boolean }) {
  const [editing, setEditing] = useState(false);
  const updateProfile = useUpdateProfile();
  const changePassword = useChangePassword();
  const form = useForm<ProfileForm>({ resolver: profileResolver, defaultValues: emptyForm(me) });
  const { isSubmitting } = form.formState;
  const memberSince = me.createdAt ? format(parseISO(me.createdAt), "MMM d, yyyy") : "Not set";

  const startEditing = () => {
    form.reset(emptyForm(me));
    setEditing(true);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (values.username !== me.username) {
        await updateProfile.mutateAsync({ username: values.username });
        toast.success(MESSAGES.profileUpdated);
      }
      if (values.newPassword) {
        await changePassword.mutateAsync({
          currentPassword: values.currentPassword,
          newPassword: values.newPassword,
          confirmPassword: values.confirmPassword,
        });
        toast.success(MESSAGES.passwordUpdated);
      }
      setEditing(false);
    } catch (err) {
      handleFormError(err, MESSAGES.profileUpdateFailed, form.setError, PROFILE_FIELDS);
    }
  });

  return (
    <>
      <PageHeader
        title="Profile"
        actions={
          editing ? null : (
            <Button variant="secondary" icon={<Pencil aria-hidden className="size-4" />} onClick={startEditing}>
              Edit Profile
            </Button>
          )
        }
      />
      <div className="flex flex-col gap-4 md:gap-6">
        {isFallback ? <Notice tone="error">{MESSAGES.profileLoadFailed}. Showing default values.</Notice> : null}
        {me.waitlisted ? (
          <Notice tone="info">
            Your account is on the waitlist. You can browse songs now; favourites, voting and uploads open once an admin
            lets you in.{" "}
            <Link to="/waitlist" className="font-medium underline underline-offset-4">
              About the waitlist
            </Link>
          </Notice>
        ) : null}

        <Panel className="flex items-center gap-4 md:gap-5">
          <UserAvatar username={me.username} size="lg" className="from-violet-500 to-fuchsia-500" />
          <div className="flex min-w-0 flex-col gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="truncate text-xl font-semibold text-white">{me.username}</h2>
              <RoleBadge value={me.role} />
            </div>
            <p className="text-sm text-zinc-400">Member since {memberSince}</p>
            {me.isArtist && me.id ? (
              <LinkButton
                to={`/artists/${encodeURIComponent(me.id)}`}
                variant="secondary"
                size="sm"
                className="self-start"
              >
                <Mic2 aria-hidden className="size-4" />
                View artist page
              </LinkButton>
            ) : null}
          </div>
        </Panel>

        <div className="grid grid-cols-2 gap-3 md:gap-4">
          <Stat
            label="Points"
            value={me.points.toLocaleString()}
            icon={<Trophy aria-hidden className="size-5 text-amber-300" />}
          />
          <Stat
            label="Uploads"
            value={me.uploadCount.toLocaleString()}
            icon={<UploadIcon aria-hidden className="size-5 text-violet-300" />}
          />
        </div>

        <TrustPanel trust={me.trust} />

        <Panel>
          <h2 className="mb-5 text-lg font-semibold text-white">Account</h2>
          {editing ? (
            <form noValidate onSubmit={onSubmit} className="flex max-w-xl flex-col gap-4">
              <TextField label="Email" type="email" value={me.email} readOnly hint="Your e-mail cannot be changed." />
              <FormTextField form={form} name="username" label="Username" autoComplete="username" />
              <fieldset className="mt-2 flex flex-col gap-4 border-t border-white/[0.06] pt-5">
                <legend className="sr-only">Change password</legend>
                <div>
                  <p className="text-sm font-semibold text-zinc-100">Change password</p>
                  <p className="mt-0.5 text-xs text-zinc-500">Leave these empty to keep your current password.</p>
                </div>
                <PasswordField
                  form={form}
                  name="currentPassword"
                  label="Current Password"
                  autoComplete="current-password"
                />
                <PasswordField form={form} name="newPassword" label="New Password" />
                <PasswordField form={form} name="confirmPassword" label="Confirm Password" />
              </fieldset>
              <div className="mt-2 flex flex-wrap gap-2">
                <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
                  Save Changes
                </SubmitButton>
                <Button variant="ghost" onClick={() => setEditing(false)} disabled={isSubmitting}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <dl className="grid gap-4 sm:grid-cols-2">
              <div>
                <dt className="text-xs font-medium uppercase tracking-wider text-zinc-500">Email</dt>
                <dd className="mt-1 break-all text-zinc-100">{me.email}</dd>
              </div>
              <div>
                <dt className="text-xs font-medium uppercase tracking-wider text-zinc-500">Username</dt>
                <dd className="mt-1 break-all text-zinc-100">{me.username}</dd>
              </div>
            </dl>
          )}
        </Panel>

        <NotificationSettingsPanel />
      </div>
    </>
  );
}

/** The member's trust level (decision 015): whether their votes count, why not, and their daily limits. */
function TrustPanel({ trust }: { trust: Me["trust"] }) {
  return (
    <Panel className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <ShieldCheck aria-hidden className="size-5 text-emerald-300" />
        <h2 className="text-lg font-semibold text-white">Trust: {trust.name}</h2>
        {trust.name === "Admin" ? null : (
          <span className="rounded-full bg-white/5 px-2 py-0.5 text-xs font-medium text-zinc-400">
            Level {trust.level} of 3
          </span>
        )}
      </div>
      <p className={trust.votesCount ? "text-sm text-zinc-300" : "text-sm text-amber-200"}>
        {trust.votesCount ? "Your votes count toward verification." : trust.note}
      </p>
      {trust.strikes > 0 ? (
        <p className="text-sm text-rose-200">
          {plural(trust.strikes, "strike")}: songs you backed or uploaded were found to be fake, which lowers your
          trust.
        </p>
      ) : null}
      {trust.caps ? (
        <p className="text-sm text-zinc-400">
          Daily limits: {plural(trust.caps.votes, "vote")}, {plural(trust.caps.reports, "report")},{" "}
          {plural(trust.caps.uploads, "upload")} and {plural(trust.caps.suggestions, "edit suggestion")} a day. They
          grow as your accepted contributions do.
        </p>
      ) : null}
    </Panel>
  );
}
