import { useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  ChangePasswordInput,
  EmailOnlyInput,
  LoginInput,
  Me,
  RegisterInput,
  RegisterResult,
  ResetPasswordInput,
  UpdateProfileInput,
} from "@unheard/shared";
import { api } from "../../lib/api/api";
import { usePostMutation } from "../../lib/api/use-post-mutation";
import { meKey, rememberEmail } from "./me";

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

/** Create an account; the server e-mails a verification link and says whether new accounts wait on the waitlist. */
export function useRegister() {
  return useMutation({
    mutationFn: (input: RegisterInput) => api.post<RegisterResult>("/api/auth/register", input),
  });
}

/** Send the verification e-mail again. */
export function useResendVerification() {
  return usePostMutation<EmailOnlyInput>("/api/auth/resend-verification");
}

/** E-mail a password reset link. */
export function useForgotPassword() {
  return usePostMutation<EmailOnlyInput>("/api/auth/forgot-password");
}

/** Set a new password with the token from the reset e-mail. */
export function useResetPassword() {
  return usePostMutation<ResetPasswordInput>("/api/auth/reset-password");
}

/** Change the signed-in user's password; the server ends their other sessions. */
export function useChangePassword() {
  return usePostMutation<ChangePasswordInput>("/api/auth/change-password");
}

/** Rename the signed-in user; the answer is the updated profile. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateProfileInput) => api.patch<Me>("/api/me", input),
    onSuccess: (me) => queryClient.setQueryData(meKey, me),
  });
}
