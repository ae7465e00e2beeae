import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  ChangePasswordInput,
  EmailOnlyInput,
  LoginInput,
  Me,
  RegisterInput,
  ResetPasswordInput,
  UpdateProfileInput,
} from "@unheard/shared";
import { api } from "./api";
import { meKey, rememberEmail } from "./me";

/** The API's plain success answer. */
export type OkResponse = { ok: true; message?: string };
/** Answer of POST /api/auth/login. */
export type LoginResponse = { ok: true; message: string; user: Me };

/** Sign in; on success the profile goes straight into the ['me'] cache. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post<LoginResponse>("/api/auth/login", input),
    onSuccess: (res) => {
      rememberEmail(res.user.email);
      // Anything cached as a visitor may differ for this user.
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== meKey[0] });
      queryClient.setQueryData(meKey, res.user);
    },
  });
}

/**
 * Sign out on the server. The caller clears the cache with `forgetSignedInUser` once it has left
 * the page, so a guarded page does not first bounce to /login.
 */
export function useLogout() {
  return useMutation({ mutationFn: () => api.post<OkResponse>("/api/auth/logout") });
}

/** Drop every cached answer and mark the user a visitor. */
export function forgetSignedInUser(queryClient: QueryClient): void {
  rememberEmail(null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== meKey[0] });
  queryClient.setQueryData(meKey, null);
}

/** Create an account; the server e-mails a verification link. */
export function useRegister() {
  return useMutation({
    mutationFn: (input: RegisterInput) => api.post<OkResponse>("/api/auth/register", input),
  });
}

/** Send the verification e-mail again. */
export function useResendVerification() {
  return useMutation({
    mutationFn: (input: EmailOnlyInput) => api.post<OkResponse>("/api/auth/resend-verification", input),
  });
}

/** E-mail a password reset link. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (input: EmailOnlyInput) => api.post<OkResponse>("/api/auth/forgot-password", input),
  });
}

/** Set a new password with the token from the reset e-mail. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (input: ResetPasswordInput) => api.post<OkResponse>("/api/auth/reset-password", input),
  });
}

/** Change the signed-in user's password; the server ends their other sessions. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => api.post<OkResponse>("/api/auth/change-password", input),
  });
}

/** Rename the signed-in user; the answer is the updated profile. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateProfileInput) => api.patch<Me>("/api/me", input),
    onSuccess: (me) => queryClient.setQueryData(meKey, me),
  });
}
